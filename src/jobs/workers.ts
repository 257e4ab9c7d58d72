import type { Services } from '../container';
import { assembleTask } from './assemble.task';
import { generateTask } from './generate.task';
import { startRdfSyncWorker } from './rdf-sync.task';
import { runJob, type JobTask } from './runner';
import { uploadTask } from './upload.task';

/** Every job kind's task; a test checks that each kind has exactly one. */
export const JOB_TASKS: readonly JobTask[] = [assembleTask, uploadTask, generateTask];

/** Registers every queue's handler on this process (ROLE=worker or all); its periodic tasks are in maintenance.ts. */
export async function startWorkers(services: Services): Promise<void> {
  const concurrency = services.settings.workerConcurrency;
  for (const task of JOB_TASKS) {
    for (const kind of task.kinds) await services.queue.work(kind, concurrency, ({ jobId }, attempt) => runJob(services, task, jobId, attempt));
  }
  await startRdfSyncWorker(services);
}
