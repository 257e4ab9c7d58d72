import type { DataSource, EntityManager } from 'typeorm';

/** Raw SQL that always yields the rows (TypeORM's plain `query()` returns `[rows, count]` for UPDATE/DELETE).
 * Runs on the transaction's connection when given a transactional manager. */
export async function rows<T = Record<string, unknown>>(
  on: DataSource | EntityManager,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const manager = 'manager' in on ? on.manager : on;
  const owned = !manager.queryRunner;
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(text, values, true);
    return result.records as T[];
  } finally {
    if (owned) await runner.release();
  }
}

export async function one<T = Record<string, unknown>>(on: DataSource | EntityManager, text: string, values: unknown[] = []): Promise<T | undefined> {
  return (await rows<T>(on, text, values))[0];
}
