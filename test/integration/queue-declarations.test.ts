import { Client } from 'pg';
import { QUEUE_NAMES, QUEUE_SCHEMA, type QueueName } from '../../src/db/queues';
import { JobQueue, type QueueOptions } from '../../src/jobs/queue';
import { QUEUES } from '../../src/jobs/workers';
import { createTestDatabase } from '../support/database';

/** Each queue's options are declared by its task (src/jobs/<kind>.task.ts); a process starting its queue writes
 * them to pg-boss's queue table, creating what is missing and updating what changed. */
jest.setTimeout(60_000);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

interface QueueRow extends QueueOptions {
  name: string;
  updatedOn: Date;
}

async function queueRows(): Promise<Map<string, QueueRow>> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<QueueRow>(
      `SELECT name, retry_limit AS "retryLimit", retry_delay AS "retryDelay", retry_backoff AS "retryBackoff",
              expire_seconds AS "expireInSeconds", updated_on AS "updatedOn"
         FROM ${QUEUE_SCHEMA}.queue`,
    );
    return new Map(rows.map((row) => [row.name, row]));
  } finally {
    await client.end();
  }
}

const optionsOf = (row: QueueRow | undefined): QueueOptions | undefined =>
  row && { retryLimit: row.retryLimit, retryDelay: row.retryDelay, retryBackoff: row.retryBackoff, expireInSeconds: row.expireInSeconds };

async function startAndStop(queues: Record<QueueName, QueueOptions>): Promise<void> {
  const queue = await JobQueue.start(database.url, { queues, supervise: false, onError: () => undefined });
  await queue.stop();
}

it('declares every queue, one per job kind and rdf_sync, with the options its task gives it', async () => {
  expect(Object.keys(QUEUES).sort()).toEqual([...QUEUE_NAMES].sort());
  await startAndStop(QUEUES);
  const rows = await queueRows();
  expect([...rows.keys()].sort()).toEqual([...QUEUE_NAMES].sort());
  for (const name of QUEUE_NAMES) expect({ name, ...optionsOf(rows.get(name)) }).toEqual({ name, ...QUEUES[name] });
});

it('writes a changed option to the queue table at the next start, and nothing when none changed', async () => {
  await startAndStop(QUEUES);
  const before = await queueRows();
  await startAndStop(QUEUES);
  const unchanged = await queueRows();
  for (const name of QUEUE_NAMES) expect(unchanged.get(name)!.updatedOn).toEqual(before.get(name)!.updatedOn);

  const changed = { ...QUEUES, rdf_sync: { ...QUEUES.rdf_sync, retryLimit: QUEUES.rdf_sync.retryLimit + 5, retryBackoff: false } };
  await startAndStop(changed);
  const after = await queueRows();
  expect(optionsOf(after.get('rdf_sync'))).toEqual(changed.rdf_sync);
  expect(optionsOf(after.get('upload'))).toEqual(QUEUES.upload);

  await startAndStop(QUEUES);
  expect(optionsOf((await queueRows()).get('rdf_sync'))).toEqual(QUEUES.rdf_sync);
});

it('lets several processes start their queues at once on a database that has none', async () => {
  // A fresh database per round, as when stateless nodes first start together (once, in CI: a deadlock in pg-boss's
  // queue creation killed the second gateway).
  for (let round = 0; round < 3; round++) {
    const fresh = await createTestDatabase();
    try {
      const client = new Client({ connectionString: fresh.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${QUEUE_SCHEMA}.queue`);
        for (const { name } of rows) await client.query(`SELECT ${QUEUE_SCHEMA}.delete_queue($1)`, [name]);
      } finally {
        await client.end();
      }
      const started = await Promise.allSettled(
        Array.from({ length: 4 }, () => JobQueue.start(fresh.url, { queues: QUEUES, supervise: false, onError: () => undefined })),
      );
      expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(Array(4).fill('started'));
      for (const s of started) if (s.status === 'fulfilled') await s.value.stop();
    } finally {
      await fresh.drop();
    }
  }
});
