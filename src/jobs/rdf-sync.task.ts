import type { Services } from '../container';
import { runQueueTask, type QueueTask } from './runner';

/** rdf_sync: writes a validated instance's graph to the external triplestore. Every failure is retried (with
 * pg-boss's backoff, QUEUE_OPTIONS.rdf_sync): the triplestore may come back. The attempt records its failure on the
 * instance (InstancesService.sync: pending with its error, failed on the last attempt), so giving up adds nothing;
 * the resync sweep (maintenance.ts) offers a waiting instance every RDF_RESYNC_SECONDS, so the triplestore's return
 * is noticed even when the backoff has grown long or the retries ran out. */
const rdfSyncTask: QueueTask<'rdf_sync'> = {
  queue: 'rdf_sync',
  policy: { retried: () => true },
  run: (services, { instanceId }, attempt) => services.app.instances.sync(instanceId, attempt),
  giveUp: async () => undefined,
};

/** Registers the rdf_sync handler on this process (workers, and ROLE=app). */
export async function startRdfSyncWorker(services: Services): Promise<void> {
  await services.queue.work('rdf_sync', services.settings.workerConcurrency, (payload, attempt) =>
    runQueueTask(services, rdfSyncTask, payload, attempt),
  );
}
