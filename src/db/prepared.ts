import type { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { Named } from './queries/auth.sql';

/** Runs a named statement on the data source's pg pool as a prepared statement (pg prepares it once per
 * connection, then sends only the parameters): the hot path skips TypeORM's query runner. */
export async function prepared<Row>(db: DataSource, statement: Named<Row>): Promise<Row[]> {
  const pool = (db.driver as unknown as { master: Pool }).master;
  const result = await pool.query({ name: statement.name, text: statement.text, values: statement.values });
  return result.rows as Row[];
}

/** The same inside a transaction: on the transaction's own connection (a TypeORM transactional entity manager). */
export async function preparedIn<Row>(manager: EntityManager, statement: Named<Row>): Promise<Row[]> {
  if (!manager.queryRunner) throw new Error('preparedIn needs a transactional entity manager');
  const client = (await manager.queryRunner.connect()) as PoolClient;
  const result = await client.query({ name: statement.name, text: statement.text, values: statement.values });
  return result.rows as Row[];
}
