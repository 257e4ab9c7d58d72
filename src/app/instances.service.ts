import type { DataSource } from 'typeorm';
import { transactionDb } from '../db/pg-boss-adapter';
import { one, rows } from '../db/sql';
import { AppInstance } from '../entities/app-instance.entity';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../lib/logger';
import type { TriplestoreClient } from '../rdf/triplestore';
import type { Clock } from '../services/clock';
import { instanceNotFound } from './app-errors';

/** Failed instances queued again after a successful sync (the triplestore is back). */
const RESYNC_BATCH = 100;

/** Stored instances and the sync of their graphs to the external triplestore. */
export class InstancesService {
  constructor(
    private readonly db: DataSource,
    private readonly queue: JobQueue,
    private readonly triplestore: TriplestoreClient | null,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async get(instanceId: string): Promise<AppInstance> {
    // Postgres text cannot hold NUL (a query with one fails), so such an id names no instance.
    const instance = instanceId.length <= 200 && !instanceId.includes('\0') ? await this.db.manager.findOneBy(AppInstance, { instanceId }) : null;
    if (!instance) throw instanceNotFound(instanceId);
    return instance;
  }

  /**
   * One attempt of the rdf_sync job. A failure is thrown so pg-boss retries with backoff; the last attempt marks
   * the instance `failed`. A success also requeues failed instances, so a triplestore that was down for longer
   * than the retries still receives every graph once it answers again.
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
    await this.requeueFailed();
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

  private async requeueFailed(): Promise<void> {
    await this.db.transaction(async (manager) => {
      const failed = await rows<{ instance_id: string }>(
        manager,
        `UPDATE app_instances SET rdf_sync_status = 'pending' WHERE id IN (
           SELECT id FROM app_instances WHERE rdf_sync_status = 'failed' ORDER BY id LIMIT ${RESYNC_BATCH} FOR UPDATE SKIP LOCKED)
         RETURNING instance_id`,
      );
      for (const { instance_id } of failed) await this.queue.send('rdf_sync', { instanceId: instance_id }, transactionDb(manager));
    });
  }
}
