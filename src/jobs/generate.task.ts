import type { JobTask } from './runner';

/** generate_package and generate_app: a published model's package, or its paid application download. */
export const generateTask: JobTask = {
  kinds: ['generate_package', 'generate_app'],
  firstStep: 'generating',
  run: (services, job) => services.generation.generateJob(job),
};
