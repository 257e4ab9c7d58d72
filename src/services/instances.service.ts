import type { DataSource } from 'typeorm';
import { transactionDb } from '../db/pg-boss-adapter';
import { one, rows } from '../db/sql';
import { AppInstance } from '../entities/app-instance.entity';
import type { QueueSender } from '../db/queues';
import type { Logger } from '../lib/logger';
import type { TriplestoreClient } from '../rdf/triplestore';
import { presentInstance, type InstanceView } from '../presenters/instance.presenter';
import type { Clock } from './clock';
import { instanceNotFound } from '../lib/app-api-errors';

/** Waiting instances queued again at a time, after a successful sync (the triplestore is back). */
const RESYNC_BATCH = 100;

/** Instances waiting for the triplestore: failed for good, or pending after a failed attempt (whose next retry may
 * be many minutes away by then). Matches the partial index app_instances_sync_waiting_idx. */
const WAITING = `(rdf_sync_status = 'failed' OR (rdf_sync_status = 'pending' AND rdf_sync_error IS NOT NULL))`;

/** Stored instances and the sync of their graphs to the external triplestore. */
export class InstancesService {
  constructor(
    private readonly db: DataSource,
    private readonly queue: QueueSender,
    private readonly triplestore: TriplestoreClient | null,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async get(instanceId: string): Promise<InstanceView> {
    // Postgres text cannot hold NUL (a query with one fails), so such an id names no instance.
    const instance = instanceId.length <= 200 && !instanceId.includes('\0') ? await this.db.manager.findOneBy(AppInstance, { instanceId }) : null;
    if (!instance) throw instanceNotFound(instanceId);
    return presentInstance(instance);
  }

  /**
   * One attempt of the rdf_sync job. A failure is thrown so pg-boss retries with backoff; the last attempt marks
   * the instance `failed`. A success also requeues the waiting instances, so none of them waits out its backoff
   * (or, once failed, forever) after the triplestore answers again.
   */
  async sync(instanceId: string, attempt: { retryCount: number; retryLimit: number }): Promise<void> {
    const row = await one<{ graph_uri: string; ntriples: string; rdf_sync_status: string }>(
      this.db,
      `SELECT i.graph_uri, g.ntriples, i.rdf_sync_status FROM app_instances i JOIN app_graphs g ON g.graph_uri = i.graph_uri
        WHERE i.instance_id = $1`,
      [instanceId],
    );
    if (!row || row.rdf_sync_status !== 'pending') return;
    if (!this.triplestore) {
      await this.mark(instanceId, 'disabled', null);
      return;
    }
    try {
      await this.triplestore.replaceGraph(row.graph_uri, row.ntriples, 'text/turtle');
    } catch (error) {
      const message = (error as Error).message.slice(0, 1000);
      const last = attempt.retryCount >= attempt.retryLimit;
      await this.mark(instanceId, last ? 'failed' : 'pending', message);
      this.logger.warn({ err: error, instanceId, retryCount: attempt.retryCount, last }, 'triplestore sync failed');
      throw error;
    }
    await this.mark(instanceId, 'synced', null);
    await this.requeueWaiting();
  }

  /**
   * The resync sweep: offers the oldest waiting instance's graph to the triplestore; when it is taken, the other
   * waiting instances are queued again at once. Without it, instances whose retries ran out would wait for the
   * next validation's successful sync. Returns how many were queued.
   */
  async resyncWaiting(): Promise<number> {
    if (!this.triplestore) return 0;
    const probe = await one<{ instance_id: string; graph_uri: string; ntriples: string }>(
      this.db,
      `SELECT i.instance_id, i.graph_uri, g.ntriples FROM app_instances i JOIN app_graphs g ON g.graph_uri = i.graph_uri
        WHERE ${WAITING} ORDER BY i.id LIMIT 1`,
    );
    if (!probe) return 0;
    try {
      await this.triplestore.replaceGraph(probe.graph_uri, probe.ntriples, 'text/turtle');
    } catch (error) {
      this.logger.debug({ err: error, instanceId: probe.instance_id }, 'triplestore still unavailable');
      return 0;
    }
    await this.mark(probe.instance_id, 'synced', null);
    return this.requeueWaiting();
  }

  private async mark(instanceId: string, status: 'pending' | 'synced' | 'failed' | 'disabled', error: string | null): Promise<void> {
    await rows(
      this.db,
      `UPDATE app_instances SET rdf_sync_status = $2, rdf_sync_error = $3, rdf_sync_attempts = rdf_sync_attempts + 1,
         rdf_synced_at = CASE WHEN $2 = 'synced' THEN $4::timestamptz ELSE rdf_synced_at END
       WHERE instance_id = $1`,
      [instanceId, status, error, this.clock.now()],
    );
  }

  private async requeueWaiting(): Promise<number> {
    return this.db.transaction(async (manager) => {
      const waiting = await rows<{ instance_id: string }>(
        manager,
        `UPDATE app_instances SET rdf_sync_status = 'pending', rdf_sync_error = NULL WHERE id IN (
           SELECT id FROM app_instances WHERE ${WAITING} ORDER BY id LIMIT ${RESYNC_BATCH} FOR UPDATE SKIP LOCKED)
         RETURNING instance_id`,
      );
      for (const { instance_id } of waiting) await this.queue.send('rdf_sync', { instanceId: instance_id }, transactionDb(manager));
      return waiting.length;
    });
  }
}
