import type { JobTask } from './runner';

/** assemble: a mixed assembly request, planned, built, charged and finalized by the pipeline service. */
export const assembleTask: JobTask = {
  kinds: ['assemble'],
  firstStep: 'parsing',
  run: (services, job, progress) => services.pipeline.assembleJob(job, progress),
};
