import type { DataSource, EntityManager } from 'typeorm';
import { pgCode, PG } from '../lib/errors';

/** The unit of work: TypeORM's entity manager of an open transaction, as `transactionRetried` hands it to its
 * work. A method that must commit or roll back with its caller takes one as its first parameter; it never opens
 * a transaction of its own (docs/ARCHITECTURE.md, "One unit of work"). */
export type Tx = EntityManager;

/** Where a read runs that a caller may make inside or outside a transaction: the data source (a pooled
 * connection of its own) or the caller's `Tx`. Always passed, never defaulted. */
export type Queryable = DataSource | Tx;

/** The SQLSTATEs after which the whole transaction is run again: Postgres picked it as a deadlock victim or could
 * not serialise it. Neither is the caller's error, and a second run usually succeeds. */
export const RETRYABLE_SQLSTATES: ReadonlySet<string> = new Set([PG.deadlockDetected, PG.serializationFailure]);

const ATTEMPTS = 5;

/** Opens a unit of work: runs `work` in one transaction and runs it again (up to five times, after a short random
 * pause) when it fails with a RETRYABLE_SQLSTATES code. Every transaction outside src/db opens here, so `work` must
 * be safe to run twice: it writes to Postgres (pg-boss included) through its `Tx`, and anything it does outside
 * the database (a stored file) is idempotent; caches, replies and other effects come after it returns. */
export async function transactionRetried<T>(db: DataSource, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const code = pgCode(error);
      if (attempt >= ATTEMPTS || code === undefined || !RETRYABLE_SQLSTATES.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 40));
    }
  }
}
