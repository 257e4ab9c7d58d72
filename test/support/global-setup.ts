import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { migrateDatabase } from '../../src/db/migrate';
import { TEMPLATE_DATABASE } from './database';

/** One Postgres per run: the embedded one unless DATABASE_URL names another. Migrate a template database once;
 * each test file clones it (test/support/database.ts). */
export default async function globalSetup(): Promise<void> {
  // Every REST response the suites read is recorded there and checked against the OpenAPI document at teardown.
  process.env.OPENAPI_RECORD_DIR = await mkdtemp(path.join(os.tmpdir(), 'sdc-gateway-openapi-'));
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sdc-gateway-test-'));
    // mkdtemp makes 0700; the embedded Postgres (the postgres user under root) must cross it.
    await chmod(dir, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: 0 });
    (globalThis as { __EMBEDDED_PG__?: { stop: () => Promise<void> } }).__EMBEDDED_PG__ = pg;
    adminUrl = pg.url('postgres');
  }
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
  await migrateDatabase(templateUrl.toString());
}
