import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/db/embedded-postgres';
import { migrateDatabase } from '../../src/db/migrate';

/** A Postgres cluster of one test file alone (its own data directory and port), so the test can stop and start
 * the server without touching the shared test cluster. */
export interface OwnPostgres {
  /** URL of the migrated service database. */
  url: string;
  port: number;
  /** Fast shutdown (SIGINT): open connections are terminated, the data stays. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and data directory. */
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startOwnPostgres(database = 'sdc_faults'): Promise<OwnPostgres> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sdc-faults-pg-'));
  // mkdtemp makes 0700; the embedded Postgres (the postgres user under root) must cross it.
  await chmod(dir, 0o755);
  const dataDir = path.join(dir, 'postgres');
  const port = await freePort();
  let handle: EmbeddedPostgresHandle | null = await startEmbeddedPostgres({ dataDir, port });
  const admin = new Client({ connectionString: handle.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const url = handle.url(database);
  await migrateDatabase(url);
  const stop = async () => {
    const running = handle;
    handle = null;
    await running?.stop();
  };
  return {
    url,
    port,
    stop,
    start: async () => {
      if (!handle) handle = await startEmbeddedPostgres({ dataDir, port });
    },
    dispose: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
