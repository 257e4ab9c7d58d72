import type { DataSource } from 'typeorm';
import { transactionDb } from '../db/pg-boss-adapter';
import { transactionRetried } from '../db/transaction';
import { query, queryOne } from '../db/sql';
import {
  failWaitingInstanceSync,
  instanceForSync,
  markInstanceSync,
  oldestWaitingInstance,
  requeueWaitingInstances,
} from '../db/queries/instances.sql';
import { AppInstance } from '../entities/app-instance.entity';
import type { QueueSender } from '../db/queues';
import type { Logger } from '../lib/logger';
import type { TriplestoreClient } from '../rdf/triplestore';
import { presentInstance, type InstanceView } from '../presenters/instance.presenter';
import type { Clock } from './clock';
import { instanceNotFound } from '../lib/app-api-errors';

/** Waiting instances queued again at a time, after a successful sync (the triplestore is back). */
const RESYNC_BATCH = 100;

/** A sync error as stored on the instance. */
const errorText = (message: string) => message.slice(0, 1000);

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
   * One attempt of the rdf_sync job (jobs/rdf-sync.task.ts). A failure leaves the instance pending with its error
   * and is thrown, for the runner to retry or give up. A success also requeues the waiting instances, so none of
   * them waits out its backoff (or, once failed, forever) after the triplestore answers again.
   */
  async sync(instanceId: string): Promise<void> {
    const row = await queryOne(this.db, instanceForSync(instanceId));
    if (!row || row.rdf_sync_status !== 'pending') return;
    if (!this.triplestore) {
      await this.mark(instanceId, 'disabled', null);
      return;
    }
    try {
      await this.triplestore.replaceGraph(row.graph_uri, row.ntriples, 'text/turtle');
    } catch (error) {
      await this.mark(instanceId, 'pending', errorText((error as Error).message));
      this.logger.warn({ err: error, instanceId }, 'triplestore sync failed');
      throw error;
    }
    await this.mark(instanceId, 'synced', null);
    await this.requeueWaiting();
  }

  /** The rdf_sync job's give-up hook: the instance whose last attempt failed is marked failed, with the reason; it
   * waits for the resync sweep. An instance synced or queued again since is left as it is. */
  async syncGivenUp(instanceId: string, reason: string): Promise<void> {
    await query(this.db, failWaitingInstanceSync(instanceId, errorText(reason)));
  }

  /**
   * The resync sweep: offers the oldest waiting instance's graph to the triplestore; when it is taken, the other
   * waiting instances are queued again at once. Without it, instances whose retries ran out would wait for the
   * next validation's successful sync. Returns how many were queued.
   */
  async resyncWaiting(): Promise<number> {
    if (!this.triplestore) return 0;
    const probe = await queryOne(this.db, oldestWaitingInstance());
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
    await query(this.db, markInstanceSync(instanceId, status, error, this.clock.now()));
  }

  private async requeueWaiting(): Promise<number> {
    return transactionRetried(this.db, async (manager) => {
      const waiting = await query(manager, requeueWaitingInstances(RESYNC_BATCH));
      for (const { instance_id } of waiting) await this.queue.send('rdf_sync', { instanceId: instance_id }, transactionDb(manager));
      return waiting.length;
    });
  }
}
