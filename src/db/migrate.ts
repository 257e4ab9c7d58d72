import { Client } from 'pg';
import { MIGRATIONS } from './migrations';
import { migrateQueue } from './queues';

/** Numbered SQL migrations, applied in order under an advisory lock so concurrent starts do not race. */
export async function migrateDatabase(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['sdc-gateway:migrate']);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
    for (const migration of MIGRATIONS) {
      if (done.has(migration.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.id} failed`, { cause: error });
      }
      applied.push(migration.id);
    }
    await migrateQueue(databaseUrl);
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['sdc-gateway:migrate']).catch(() => undefined);
    await client.end();
  }
  return applied;
}

/** True when every migration this build knows has been applied (readiness). */
export async function pendingMigrations(query: (sql: string) => Promise<Array<{ id: string }>>): Promise<string[]> {
  const done = new Set((await query('SELECT id FROM schema_migrations')).map((r) => r.id));
  return MIGRATIONS.map((m) => m.id).filter((id) => !done.has(id));
}
