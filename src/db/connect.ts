import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import type { Settings } from '../config';
import type { Logger } from '../lib/logger';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres';

const EMBEDDED_DATABASE = 'sdc_gateway';

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedPostgresHandle | null;
  stop: () => Promise<void>;
}

/** The embedded cluster already running on `dataDir` (e.g. `npm start` while the CLI runs). */
async function runningEmbedded(dataDir: string): Promise<{ pid: number; port: number } | null> {
  try {
    const lines = (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!pid || !port) return null;
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null;
  }
}

/** A postmaster whose parent is no longer a Node process: the service that started it died, and init adopted it. */
async function orphaned(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const command = await readFile(`/proc/${parent}/cmdline`, 'utf8');
    return !/node/.test(command);
  } catch {
    return false;
  }
}

/** Stops a postmaster with a fast shutdown and waits until it is gone. */
async function stopPostmaster(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the embedded Postgres (pid ${pid}) left running by a process that died did not stop within 60 s`);
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

/** DATABASE_URL when set; otherwise the embedded cluster under EMBEDDED_PG_DIR, reused when another live process of
 * this service runs it, started (and later stopped) by this process when not; one whose starter died is restarted. */
export async function openDatabase(settings: Settings, logger: Logger): Promise<DatabaseHandle> {
  if (settings.databaseUrl) return { url: settings.databaseUrl, embedded: null, stop: async () => undefined };
  const running = await runningEmbedded(settings.embeddedPgDir);
  if (running && (await orphaned(running.pid))) {
    // Adopting it would leave it running after this process exits too: stop it and start one this process owns.
    logger.warn({ pid: running.pid }, 'stopping the embedded Postgres left running by a process that died');
    await stopPostmaster(running.pid);
  } else if (running) {
    const url = `postgres://sdc:sdc@127.0.0.1:${running.port}/${EMBEDDED_DATABASE}`;
    logger.info({ port: running.port }, 'using the embedded Postgres another process started');
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
