import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { runAsCaller } from '../../src/lib/caller-context';
import { CHUNK_BYTES } from '../../src/storage/pg-storage';
import { startTestApp, type TestApp } from '../support/app';

/** Issue 30: a caller's storage writes (VaaS packages, uploaded files: 1 MiB chunks on one connection each) count
 * against its DB_CONNECTIONS_PER_CALLER, as its GraphQL fields do, so one caller writing many large files at once
 * holds at most that many of the pool's connections and another caller's writes never queue behind them. */

const SHARE = 2;

let app: TestApp;
let pool: Pool;
beforeAll(async () => {
  app = await startTestApp({ storageUrl: 'postgres:', dbConnectionsPerCaller: SHARE });
  pool = (app.services.db.driver as PostgresDriver).master as Pool;
}, 120_000);
afterAll(() => app?.close());

/** The most pool connections checked out at once while `work` runs (sampled on every turn of the event loop). */
async function mostInUse(work: Promise<unknown>): Promise<number> {
  let most = 0;
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  while (!done) {
    most = Math.max(most, pool.totalCount - pool.idleCount);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await work;
  return most;
}

const putAs = (caller: string, name: string, bytes: Buffer) => runAsCaller(caller, () => app.services.app.storage.put('packages', name, bytes));

it("holds one caller's concurrent storage writes to its database share", async () => {
  const content = Array.from({ length: 8 }, () => randomBytes(3 * CHUNK_BYTES));
  const most = await mostInUse(Promise.all(content.map((bytes, i) => putAs('key:flooder', `flood-${i}.zip`, bytes))));
  // Eight writes of three chunks at once; the caller's two slots let two stream at a time.
  expect(most).toBeLessThanOrEqual(SHARE);
  expect(most).toBeGreaterThanOrEqual(1);
});

it("lets another caller write while one caller's writes fill its share", async () => {
  const order: string[] = [];
  const flood = Array.from({ length: 8 }, (_, i) =>
    putAs('key:flooder', `again-${i}.zip`, randomBytes(3 * CHUNK_BYTES)).then(() => order.push(`flooder ${i}`)),
  );
  // Queued after the flooder's eight: its own share is free, so it does not wait for them.
  const other = putAs('key:other', 'other.zip', randomBytes(CHUNK_BYTES)).then(() => order.push('other'));
  const most = await mostInUse(Promise.all([...flood, other]));
  expect(most).toBeLessThanOrEqual(2 * SHARE);
  expect(order.indexOf('other')).toBeLessThan(order.length - 2);
});

it("runs a write nested in work already holding its caller's slot without waiting for itself", async () => {
  const shares = app.services.app.dbShares;
  const nested = await runAsCaller('key:nested', () =>
    Promise.all(
      Array.from({ length: SHARE }, (_, i) =>
        shares.run('key:nested', () => app.services.app.storage.put('packages', `nested-${i}.zip`, Buffer.from('x'))),
      ),
    ),
  );
  expect(nested).toHaveLength(SHARE);
});
