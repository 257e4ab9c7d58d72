import type { Services } from '../container';
import { startRdfSyncWorker } from './rdf-sync.worker';

const LOST_JOB_SWEEP_MS = 30_000;

/** Registers every queue's handler on this process (ROLE=worker or all) and sweeps jobs whose task failed for
 * good. Returns a function that stops the sweeps. */
export async function startWorkers(services: Services): Promise<() => void> {
  const concurrency = services.settings.workerConcurrency;
  await services.queue.work('assemble', concurrency, ({ jobId }) => services.pipeline.runAssemble(jobId));
  await services.queue.work('upload', concurrency, ({ jobId }) => services.dataSources.runUpload(jobId));
  await services.queue.work('generate_package', concurrency, ({ jobId }) => services.generation.runJob(jobId));
  await services.queue.work('generate_app', concurrency, ({ jobId }) => services.generation.runJob(jobId));
  const stopRdfSync = await startRdfSyncWorker(services);
  const sweep = setInterval(() => {
    services.jobs.failLostJobs().catch((error: unknown) => services.logger.warn({ err: error }, 'lost-job sweep failed'));
  }, LOST_JOB_SWEEP_MS);
  sweep.unref();
  return () => {
    clearInterval(sweep);
    stopRdfSync();
  };
}
