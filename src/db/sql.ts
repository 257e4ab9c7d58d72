import type { Queryable } from './transaction';

/** Raw SQL that always yields the rows (TypeORM's plain `query()` returns `[rows, count]` for UPDATE/DELETE).
 * Runs on the transaction's connection when given a transactional manager. */
export async function rows<T = Record<string, unknown>>(on: Queryable, text: string, values: unknown[] = []): Promise<T[]> {
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

export async function one<T = Record<string, unknown>>(on: Queryable, text: string, values: unknown[] = []): Promise<T | undefined> {
  return (await rows<T>(on, text, values))[0];
}

/** A raw statement and its parameters, built by a small pure function in src/db/queries. `Row` types what one
 * returned row holds; it is never set at run time, it only ties the builder to its row interface. */
export interface Sql<Row> {
  text: string;
  values: unknown[];
  readonly row?: Row;
}

export const sql = <Row = never>(text: string, values: unknown[] = []): Sql<Row> => ({ text, values });

export async function query<Row>(on: Queryable, statement: Sql<Row>): Promise<Row[]> {
  return rows<Row>(on, statement.text, statement.values);
}

export async function queryOne<Row>(on: Queryable, statement: Sql<Row>): Promise<Row | undefined> {
  return (await query(on, statement))[0];
}
