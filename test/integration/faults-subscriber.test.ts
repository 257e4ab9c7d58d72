import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/db/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { HttpClient } from '../support/http';
import { exitOf, ROOT, runCli, startService } from '../support/process';
import { JOB_FIELDS, subscribe } from '../support/subscriptions';

/** A gateway process (ROLE=gateway) killed and started again on the same port while a graphql-ws client listens
 * to a job that a separate worker process (ROLE=worker) keeps running. */
const PASSWORD = 'correct horse battery';

let database: { url: string; drop: () => Promise<void> };
let storageDir: string;
let port: number;
let baseUrl: string;
let worker: ChildProcess;
let gateway: (ChildProcess & { output: () => string }) | null = null;
let db: Client;

const startGateway = async () => {
  gateway = await startService(
    { ROLE: 'gateway', DATABASE_URL: database.url, STORAGE_DIR: storageDir, PUBLIC_BASE_URL: baseUrl, LOG_LEVEL: 'warn' },
    port,
  );
};

const jobRow = async (ctId: string) =>
  (await db.query<{ status: string; step: string | null }>('SELECT status, step FROM jobs WHERE ct_id = $1', [ctId])).rows[0];

beforeAll(async () => {
  database = await createTestDatabase();
  storageDir = await mkdtemp(path.join(tmpdir(), 'faults-sub-storage-'));
  port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  db = new Client({ connectionString: database.url });
  await db.connect();
  worker = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: database.url,
      STORAGE_DIR: storageDir,
      PUBLIC_BASE_URL: baseUrl,
      PIPELINE_STEP_DELAY_MS: '1200',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await startGateway();
}, 120_000);

afterAll(async () => {
  for (const child of [gateway, worker]) {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exitOf(child);
    }
  }
  await db?.end();
  await database?.drop();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

async function signedInOwner(): Promise<HttpClient> {
  const email = `sub-${randomBytes(4).toString('hex')}@example.org`;
  const env = { DATABASE_URL: database.url };
  expect((await runCli(['user', 'create', '--email', email, '--password', PASSWORD], env)).code).toBe(0);
  expect((await runCli(['wallet', 'credit', '--email', email, '--credits', '5000'], env)).code).toBe(0);
  const client = new HttpClient(baseUrl);
  expect((await client.post('/api/v1/auth/login/', { email, password: PASSWORD })).status).toBe(200);
  return client;
}

async function waitFor(read: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const isFinal = (job: { status: string }) => job.status === 'completed' || job.status === 'failed';

describe('the gateway restarted while a subscriber listens to a running job', () => {
  jest.setTimeout(120_000);

  it.each([
    { signal: 'SIGKILL' as const, exit: { code: null, signal: 'SIGKILL' }, finishWhileDown: true },
    { signal: 'SIGTERM' as const, exit: { code: 0, signal: null }, finishWhileDown: false },
  ])(
    'after $signal (waiting for the job to finish while the gateway is down: $finishWhileDown), the client reconnects and receives the final state once',
    async ({ signal, exit, finishWhileDown }) => {
      const client = await signedInOwner();
      const res = await client.post('/api/v1/dmgen/assemble/', {
        title: `Listened through a ${signal}`,
        data: {
          label: 'Listened Data',
          components: [
            { label: 'Heard', data_type: 'XdBoolean' },
            { label: 'Also Heard', data_type: 'XdString' },
          ],
        },
      });
      expect(res.status).toBe(202);
      const jobCtId = res.body.job_ct_id as string;
      const sub = subscribe(
        baseUrl,
        `subscription($id: String!) { jobUpdated(ctId: $id) { ${JOB_FIELDS} } }`,
        'jobUpdated',
        { cookie: `sessionid=${client.cookie('sessionid')}` },
        { id: jobCtId },
        { retryAttempts: 200 },
      );
      try {
        await sub.until((j) => j.status === 'running', 60_000);
        const down = gateway!;
        down.kill(signal);
        expect(await exitOf(down)).toEqual(exit);
        const stateAtKill = await jobRow(jobCtId);
        expect(stateAtKill.status).toBe('running');
        if (finishWhileDown) await waitFor(async () => isFinal(await jobRow(jobCtId)), 60_000, 'the worker finishing the job');
        await startGateway();

        const final = await sub.until(isFinal, 60_000);
        await sub.done;
        expect(final).toMatchObject({ ctId: jobCtId, status: 'completed', step: 'done' });
        expect(await jobRow(jobCtId)).toEqual({ status: 'completed', step: 'done' });
        expect(sub.connections()).toBeGreaterThanOrEqual(2);
        expect(sub.errors).toEqual([]);
        // The final state arrives exactly once and is the last thing the subscriber hears.
        expect(sub.items.filter(isFinal)).toHaveLength(1);
        expect(sub.items.at(-1)).toEqual(final);
        console.log(
          `subscriber through ${signal}: ${sub.connections()} connections, ${sub.items.length} states, last ${final.status}/${final.step}; waited for the job while down: ${finishWhileDown}`,
        );
      } finally {
        await sub.close();
      }
    },
  );
});
