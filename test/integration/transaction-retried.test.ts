import type { DataSource } from 'typeorm';
import { createDataSource } from '../../src/db/data-source';
import { RETRYABLE_SQLSTATES, transactionRetried, type Tx } from '../../src/db/transaction';
import { createTestDatabase } from '../support/database';

/** The one door to a transaction (src/db/transaction.ts) on the real Postgres: a deadlock victim and every
 * RETRYABLE_SQLSTATES failure run again, anything else fails at once. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: DataSource;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDataSource(database.url, 4);
  await db.initialize();
  await db.query('CREATE TABLE retry_probe (id int PRIMARY KEY, n int NOT NULL)');
  await db.query('INSERT INTO retry_probe VALUES (1, 0), (2, 0)');
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** Fails this transaction with `sqlstate`, raised by Postgres itself. */
const raise = (tx: Tx, sqlstate: string) => tx.query(`DO $$ BEGIN RAISE EXCEPTION 'probe' USING ERRCODE = '${sqlstate}'; END $$`);

describe('transactionRetried', () => {
  it('runs a deadlock victim again, so two transactions locking in opposite orders both commit', async () => {
    let attempts = 0;
    let locked = 0;
    let bothLocked!: () => void;
    const firstLocks = new Promise<void>((resolve) => (bothLocked = resolve));
    const bump = (first: number, second: number) =>
      transactionRetried(db, async (tx) => {
        attempts++;
        await tx.query('UPDATE retry_probe SET n = n + 1 WHERE id = $1', [first]);
        if (++locked === 2) bothLocked();
        await firstLocks;
        await tx.query('UPDATE retry_probe SET n = n + 1 WHERE id = $1', [second]);
      });

    await expect(Promise.all([bump(1, 2), bump(2, 1)])).resolves.toEqual([undefined, undefined]);
    expect(attempts).toBe(3);
    expect(await db.query('SELECT id, n FROM retry_probe ORDER BY id')).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it.each([...RETRYABLE_SQLSTATES])('runs the work again after SQLSTATE %s and rolls the failed run back', async (sqlstate) => {
    await db.query('UPDATE retry_probe SET n = 0');
    let attempts = 0;
    const result = await transactionRetried(db, async (tx) => {
      attempts++;
      await tx.query('UPDATE retry_probe SET n = n + 1 WHERE id = 1');
      if (attempts === 1) await raise(tx, sqlstate);
      return attempts;
    });
    expect(result).toBe(2);
    expect(await db.query('SELECT n FROM retry_probe WHERE id = 1')).toEqual([{ n: 1 }]);
  });

  it('fails at once on any other SQLSTATE (a unique violation is the caller’s conflict, not a race to retry)', async () => {
    let attempts = 0;
    await expect(
      transactionRetried(db, async (tx) => {
        attempts++;
        await raise(tx, '23505');
      }),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
    expect(attempts).toBe(1);
  });
});
