import type { Services } from '../container';

/** rdf_sync: writes a validated instance's graph to the external triplestore (retried with backoff by pg-boss).
 * The resync sweep (maintenance.ts) offers a waiting instance every RDF_RESYNC_SECONDS, so the triplestore's
 * return is noticed even when the backoff has grown long or the retries ran out. */
export async function startRdfSyncWorker(services: Services): Promise<void> {
  await services.queue.work('rdf_sync', services.settings.workerConcurrency, ({ instanceId }, attempt) =>
    services.app.instances.sync(instanceId, { retryCount: attempt.retryCount, retryLimit: attempt.retryLimit }),
  );
}
