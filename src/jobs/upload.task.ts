import type { JobTask } from './runner';

/** upload: an uploaded CSV's columns proposed as a draft model. */
export const uploadTask: JobTask = {
  kinds: ['upload'],
  firstStep: 'parsing',
  run: (services, job, progress) => services.dataSources.uploadJob(job, progress),
};
