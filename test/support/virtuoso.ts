import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A throw-away Virtuoso 7 server (Debian `virtuoso-opensource`) on free 127.0.0.1 ports with a fresh database. */
export interface VirtuosoServer {
  /** Graph Store Protocol and query endpoints with Basic authentication (defined through isql-vt). */
  graphStoreUrl: string;
  queryUrl: string;
  /** Virtuoso's own endpoints, which take Digest authentication only. */
  digestGraphStoreUrl: string;
  digestQueryUrl: string;
  user: string;
  password: string;
  /** Graceful stop (SIGTERM); the database stays for restart(). */
  stop(): Promise<void>;
  /** Crash stop (SIGKILL); the database stays for restart(). */
  kill(): Promise<void>;
  /** Starts the server again on the same ports and database. */
  restart(): Promise<void>;
  /** Stops the server if running and deletes its database. */
  dispose(): Promise<void>;
}

const USER = 'gateway';
const PASSWORD = 'gateway-secret';

const SETUP_SQL = `
DB.DBA.VHOST_DEFINE(lpath=>'/sparql-graph-crud-basic', ppath=>'/!sparql-graph-crud/', is_dav=>1, vsp_user=>'dba', sec=>'basic', realm=>'SPARQL', auth_fn=>'DB.DBA.HP_AUTH_SPARQL_USER', opts=>vector('noinherit',1,'exec_as_get',1));
DB.DBA.VHOST_DEFINE(lpath=>'/sparql-basic', ppath=>'/!sparql/', is_dav=>1, vsp_user=>'dba', sec=>'basic', realm=>'SPARQL', auth_fn=>'DB.DBA.HP_AUTH_SPARQL_USER', opts=>vector('noinherit',1,'exec_as_get',1));
DB.DBA.USER_CREATE('${USER}', '${PASSWORD}');
GRANT SPARQL_UPDATE TO "${USER}";
DB.DBA.RDF_DEFAULT_USER_PERMS_SET('${USER}', 3);
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function ini(dir: string, sqlPort: number, httpPort: number): string {
  return `[Database]
DatabaseFile = ${dir}/virtuoso.db
ErrorLogFile = ${dir}/virtuoso.log
LockFile = ${dir}/virtuoso.lck
TransactionFile = ${dir}/virtuoso.trx
xa_persistent_file = ${dir}/virtuoso.pxa
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = ${dir}/virtuoso-temp.db
TransactionFile = ${dir}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:${sqlPort}
DirsAllowed = ., ${dir}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000

[HTTPServer]
ServerPort = 127.0.0.1:${httpPort}
ServerRoot = /var/lib/virtuoso-opensource-7/vsp
MaxClientConnections = 8
ServerThreads = 8

[SPARQL]
ResultSetMaxRows = 100000
`;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitUntilAnswering(base: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`virtuoso-t exited with code ${child.exitCode}:\n${log()}`);
    const answered = await fetch(`${base}/sparql?query=${encodeURIComponent('ASK {}')}`, { signal: AbortSignal.timeout(2000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Virtuoso did not answer at ${base} within 60 s:\n${log()}`);
}

function isql(sqlPort: number, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('isql-vt', [`127.0.0.1:${sqlPort}`, 'dba', 'dba', file], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error || /\*\*\* Error/.test(stdout + stderr)) reject(new Error(`isql-vt failed: ${stderr || stdout}`, { cause: error }));
      else resolve();
    });
  });
}

export async function startVirtuoso(): Promise<VirtuosoServer> {
  if (spawnSync('sh', ['-c', 'command -v virtuoso-t && command -v isql-vt']).status !== 0) {
    throw new Error(
      'virtuoso-t / isql-vt not found: install Virtuoso with `DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends virtuoso-opensource`',
    );
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'virtuoso-test-'));
  const [sqlPort, httpPort] = [await freePort(), await freePort()];
  const configFile = path.join(dir, 'virtuoso.ini');
  await writeFile(configFile, ini(dir, sqlPort, httpPort));
  const base = `http://127.0.0.1:${httpPort}`;
  let child: ChildProcess | null = null;
  let output = '';

  const start = async () => {
    output = '';
    const started = spawn('virtuoso-t', ['+foreground', '+configfile', configFile], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child = started;
    await waitUntilAnswering(base, started, () => output.slice(-2000));
  };
  const halt = async (signal: NodeJS.Signals) => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    running.kill(signal);
    await exited(running);
  };

  await start();
  const setupFile = path.join(dir, 'setup.sql');
  await writeFile(setupFile, SETUP_SQL);
  try {
    await isql(sqlPort, setupFile);
  } catch (error) {
    await halt('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    graphStoreUrl: `${base}/sparql-graph-crud-basic`,
    queryUrl: `${base}/sparql-basic`,
    digestGraphStoreUrl: `${base}/sparql-graph-crud-auth`,
    digestQueryUrl: `${base}/sparql-auth`,
    user: USER,
    password: PASSWORD,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    restart: async () => {
      await halt('SIGTERM');
      await start();
    },
    dispose: async () => {
      await halt('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
