import PgBoss from 'pg-boss';

/** One typed payload per queue, shared by `send` and `work`. */
export interface QueuePayloads {
  assemble: { jobId: string };
  upload: { jobId: string };
  generate_package: { jobId: string };
  generate_app: { jobId: string };
  rdf_sync: { instanceId: string };
}

export type QueueName = keyof QueuePayloads;

export const QUEUE_NAMES: QueueName[] = ['assemble', 'upload', 'generate_package', 'generate_app', 'rdf_sync'];

export const QUEUE_SCHEMA = 'pgboss';

/** Queue policy per name: long pipeline steps get a generous expiry; a dead worker's job is retried after it. */
const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, 'name'>> = {
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
