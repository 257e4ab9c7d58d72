import type { DataSource } from 'typeorm';
import { transactionDb } from '../db/pg-boss-adapter';
import { transactionRetried } from '../db/transaction';
import { prepared, preparedIn } from '../db/prepared';
import type { QueueSender } from '../db/queues';
import { MAX_ROWS, storeInstances, type StoredInstance } from '../db/queries/instances.sql';
import { GroupCommit, type Settled } from '../money';

/**
 * validate/xml's write, group-committed: the instances that arrive while a batch is being written are stored
 * together by the next one, in one statement (and one transaction with their rdf_sync jobs). Each member still
 * answers only once its own row is committed. A batch that fails on a row (a taken instance_id) is written again
 * one instance at a time, so each member gets its own outcome, as a lone write would (GroupCommit).
 */
export class InstanceStore {
  private readonly batches = new GroupCommit<StoredInstance, void>((_lane, instances) => this.write(instances));

  constructor(
    private readonly db: DataSource,
    private readonly queue: QueueSender,
  ) {}

  store(instance: StoredInstance): Promise<void> {
    return this.batches.submit(0, instance);
  }

  private async write(instances: StoredInstance[]): Promise<Settled<void>[]> {
    const syncing = instances.filter((i) => i.rdfSyncStatus === 'pending');
    if (syncing.length === 0 && instances.length <= MAX_ROWS) await prepared(this.db, storeInstances(instances));
    else {
      await transactionRetried(this.db, async (manager) => {
        for (let from = 0; from < instances.length; from += MAX_ROWS) {
          await preparedIn(manager, storeInstances(instances.slice(from, from + MAX_ROWS)));
        }
        for (const { instanceId } of syncing) await this.queue.send('rdf_sync', { instanceId }, transactionDb(manager));
      });
    }
    return instances.map(() => ({ ok: true, value: undefined }));
  }
}
