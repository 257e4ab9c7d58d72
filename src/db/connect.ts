import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import type { Settings } from '../config';
import type { Logger } from '../lib/logger';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres';

export const EMBEDDED_DATABASE = 'sdc_gateway';

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedPostgresHandle | null;
  stop: () => Promise<void>;
}

/** The port of an embedded cluster already running on `dataDir` (e.g. `npm start` while the CLI runs). */
async function runningEmbeddedPort(dataDir: string): Promise<number | null> {
  try {
    const lines = (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!pid || !port) return null;
    process.kill(pid, 0);
    return port;
  } catch {
    return null;
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** DATABASE_URL when set; otherwise the embedded cluster under EMBEDDED_PG_DIR, reused when another process of
 * this service already runs it, started (and later stopped) by this process when not. */
export async function openDatabase(settings: Settings, logger: Logger): Promise<DatabaseHandle> {
  if (settings.databaseUrl) return { url: settings.databaseUrl, embedded: null, stop: async () => undefined };
  const sharedPort = await runningEmbeddedPort(settings.embeddedPgDir);
  if (sharedPort) {
    const url = `postgres://sdc:sdc@127.0.0.1:${sharedPort}/${EMBEDDED_DATABASE}`;
    logger.info({ port: sharedPort }, 'using the embedded Postgres another process started');
    return { url, embedded: null, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: settings.embeddedPgDir,
    port: settings.embeddedPgPort,
    log: (message) => logger.debug({ component: 'embedded-postgres' }, message.trim()),
  });
  logger.info({ port: embedded.port, dataDir: settings.embeddedPgDir }, 'embedded Postgres started');
  await ensureDatabase(embedded.url('postgres'), EMBEDDED_DATABASE);
  return { url: embedded.url(EMBEDDED_DATABASE), embedded, stop: () => embedded.stop() };
}
