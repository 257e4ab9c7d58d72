import type { Services } from '../container';
import type { QueueName } from '../db/queues';
import { assembleTask } from './assemble.task';
import { generateTask } from './generate.task';
import type { QueueOptions } from './queue';
import { rdfSyncTask, startRdfSyncWorker } from './rdf-sync.task';
import { runJob, type JobTask } from './runner';
import { uploadTask } from './upload.task';

/** Every job kind's task; a test checks that each kind has exactly one. */
export const JOB_TASKS: readonly JobTask[] = [assembleTask, uploadTask, generateTask];

/** Every queue's options, as its task declares them: what each process writes to pg-boss's queue table when it
 * starts its queue (JobQueue.start). A test checks that every queue has one entry and that pg-boss holds it. */
export const QUEUES = Object.fromEntries([
  ...JOB_TASKS.flatMap((task) => task.kinds.map((kind) => [kind, task.queueOptions] as const)),
  [rdfSyncTask.queue, rdfSyncTask.queueOptions] as const,
]) as Record<QueueName, QueueOptions>;

/** Registers every queue's handler on this process (ROLE=worker or all); its periodic tasks are in maintenance.ts. */
export async function startWorkers(services: Services): Promise<void> {
  const concurrency = services.settings.workerConcurrency;
  for (const task of JOB_TASKS) {
    for (const kind of task.kinds) await services.queue.work(kind, concurrency, ({ jobId }, attempt) => runJob(services, task, jobId, attempt));
  }
  await startRdfSyncWorker(services);
}
