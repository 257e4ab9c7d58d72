import type { Services } from '../container';

/** rdf_sync: writes a validated instance's graph to the external triplestore (retried with backoff by pg-boss),
 * and every RDF_RESYNC_SECONDS offers a waiting instance to the triplestore, so its return is noticed even when
 * the backoff has grown long or the retries ran out. Returns a function that stops the sweep. */
export async function startRdfSyncWorker(services: Services): Promise<() => void> {
  await services.queue.work('rdf_sync', services.settings.workerConcurrency, ({ instanceId }, attempt) =>
    services.app.instances.sync(instanceId, { retryCount: attempt.retryCount, retryLimit: attempt.retryLimit }),
  );
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    services.app.instances
      .resyncWaiting()
      .then((queued) => {
        if (queued) services.logger.info({ queued }, 'triplestore answers again: waiting instances queued');
      })
      .catch((error: unknown) => services.logger.warn({ err: error }, 'rdf resync sweep failed'))
      .finally(() => (sweeping = false));
  }, services.settings.rdfResyncSeconds * 1000);
  sweep.unref();
  return () => clearInterval(sweep);
}
