import type { DataSource } from 'typeorm';
import { transactionDb } from '../db/pg-boss-adapter';
import { transactionRetried } from '../db/transaction';
import { prepared, preparedIn } from '../db/prepared';
import type { QueueSender } from '../db/queues';
import { statementGroups, storeInstances, type StoredInstance } from '../db/queries/instances.sql';
import { GroupCommit, type Settled } from '../money';

/**
 * validate/xml's write, group-committed: the instances that arrive while a batch is being written are stored
 * together by the next one, in one statement (and one transaction with their rdf_sync jobs; a batch larger than a
 * statement's rows or text, `statementGroups`, in several statements of that transaction). Each member still
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
    const groups = statementGroups(instances);
    if (syncing.length === 0 && groups.length === 1) await prepared(this.db, storeInstances(instances));
    else {
      await transactionRetried(this.db, async (manager) => {
        for (const group of groups) await preparedIn(manager, storeInstances(group));
        for (const { instanceId } of syncing) await this.queue.send('rdf_sync', { instanceId }, transactionDb(manager));
      });
    }
    return instances.map(() => ({ ok: true, value: undefined }));
  }
}
