import type { Services } from '../container';
import { QUEUE_OPTIONS } from './queue';

/** rdf_sync: writes a validated instance's graph to the external triplestore (retried with backoff by pg-boss). */
export async function startRdfSyncWorker(services: Services): Promise<void> {
  const retryLimit = QUEUE_OPTIONS.rdf_sync.retryLimit ?? 0;
  await services.queue.work('rdf_sync', services.settings.workerConcurrency, ({ instanceId }, meta) =>
    services.app.instances.sync(instanceId, { retryCount: meta.retryCount, retryLimit }),
  );
}
