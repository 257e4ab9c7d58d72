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

/** Queue policy per name: long pipeline steps get a generous expiry; a dead worker's job is retried after it. */
export const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, 'name'>> = {
  assemble: { retryLimit: 3, retryDelay: 1, expireInSeconds: 300 },
  upload: { retryLimit: 3, retryDelay: 1, expireInSeconds: 300 },
  generate_package: { retryLimit: 3, retryDelay: 1, expireInSeconds: 300 },
  generate_app: { retryLimit: 3, retryDelay: 1, expireInSeconds: 300 },
  rdf_sync: { retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
};

/** Creates pg-boss's schema and this service's queues (run with the SQL migrations). */
export async function migrateQueue(databaseUrl: string): Promise<void> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: QUEUE_SCHEMA, supervise: false, schedule: false, max: 2 });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    const existing = new Set((await boss.getQueues()).map((q) => q.name));
    for (const name of QUEUE_NAMES) {
      if (!existing.has(name)) await boss.createQueue(name, { name, ...QUEUE_OPTIONS[name] });
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}
