import PgBoss from 'pg-boss';
import { JOB_KINDS, type JobKind } from '../entities/job.entity';

/** One queue per job kind, plus rdf_sync (Interface B's triplestore writes, not a job row). */
export const QUEUE_NAMES = [...JOB_KINDS, 'rdf_sync'] as const;

export type QueueName = (typeof QUEUE_NAMES)[number];

/** One typed payload per queue, shared by `send` and `work`: a job kind's message names its job row. */
export type QueuePayloads = { [K in JobKind]: { jobId: string } } & { rdf_sync: { instanceId: string } };

/** What services need of the queue: sending inside their own transaction (`db`). */
export interface QueueSender {
  send<K extends QueueName>(name: K, payload: QueuePayloads[K], db?: PgBoss.Db): Promise<string>;
}

export const QUEUE_SCHEMA = 'pgboss';

/** Creates or upgrades pg-boss's schema (run with the SQL migrations). The queues themselves, with the options their
 * task declarations give them (src/jobs/<kind>.task.ts), are written by every process as it starts its queue
 * (JobQueue.start), so a changed option reaches the queue table at the next start. */
export async function migrateQueue(databaseUrl: string): Promise<void> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: QUEUE_SCHEMA, supervise: false, schedule: false, max: 2 });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
}
