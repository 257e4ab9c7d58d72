import type { DataSource, EntityManager } from 'typeorm';
import { pgCode, PG } from '../lib/errors';

const DEADLOCK_RETRIES = 5;

/** A transaction retried when Postgres picks it as a deadlock victim or fails to serialise it: a conflict between
 * two requests is never the caller's error. */
export async function transactionRetried<T>(db: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const code = pgCode(error);
      if (attempt >= DEADLOCK_RETRIES || (code !== PG.deadlockDetected && code !== PG.serializationFailure)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 40));
    }
  }
}
