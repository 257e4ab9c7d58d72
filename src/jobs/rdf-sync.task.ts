import type { Services } from '../container';
import { runQueueTask, type QueueTask } from './runner';

/** rdf_sync: writes a validated instance's graph to the external triplestore. Every failure is retried, with
 * backoff (the triplestore may come back); a failed attempt leaves the instance pending with its error, and giving
 * up (the last attempt) marks it failed. The resync sweep (maintenance.ts) offers a waiting instance every
 * RDF_RESYNC_SECONDS, so the triplestore's return is noticed even when the backoff has grown long or the retries
 * ran out. */
export const rdfSyncTask: QueueTask<'rdf_sync'> = {
  queue: 'rdf_sync',
  queueOptions: { retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
  policy: { retried: () => true },
  run: (services, { instanceId }) => services.app.instances.sync(instanceId),
  giveUp: (services, { instanceId }, reason) => services.app.instances.syncGivenUp(instanceId, reason),
};

/** Registers the rdf_sync handler on this process (workers, and ROLE=app). */
export async function startRdfSyncWorker(services: Services): Promise<void> {
  await services.queue.work('rdf_sync', services.settings.workerConcurrency, (payload, attempt) =>
    runQueueTask(services, rdfSyncTask, payload, attempt),
  );
}
