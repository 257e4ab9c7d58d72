import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { waitFor } from '../support/wait';
import { freePort } from '../../src/db/embedded-postgres';
import { HttpClient } from '../support/http';
import { startOwnPostgres, type OwnPostgres } from '../support/postgres-cluster';
import { exitOf, runCli, startService } from '../support/process';

/** The service (ROLE=all, `node dist/src/main.js`) on a Postgres cluster of its own, stopped in the middle of a
 * job and started again: the runner rethrows the outage, pg-boss retries the job and it completes. */
const PASSWORD = 'correct horse battery';
const APP_PRICE = 250;

let pg: OwnPostgres;
let service: ChildProcess & { output: () => string };
let baseUrl: string;
let storageDir: string;
let owner: HttpClient;

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: pg.url });
  await db.connect();
  try {
    return (await db.query(text, values)).rows as T[];
  } finally {
    await db.end();
  }
}

const serviceLog = () => service.output().slice(-3000);

const finalJob = (ctId: string) =>
  waitFor(
    async () => (await owner.get(`/api/v1/jobs/${ctId}/`)).body,
    (job) => job?.status === 'completed' || job?.status === 'failed',
    90_000,
    `job ${ctId} final`,
    serviceLog,
  );

/** Stops Postgres as soon as the job reaches `step`, keeps it down a few seconds, starts it again. */
async function outageAt(ctId: string, step: string): Promise<void> {
  await waitFor(
    async () => (await query<{ step: string }>('SELECT step FROM jobs WHERE ct_id = $1', [ctId]))[0]?.step,
    (s) => s === step,
    60_000,
    `step ${step}`,
    serviceLog,
  );
  await pg.stop();
  await new Promise((r) => setTimeout(r, 3000));
  await pg.start();
}

async function jobRow(ctId: string) {
  const [row] = await query<{ id: string; attempts: number; status: string }>('SELECT id, attempts, status FROM jobs WHERE ct_id = $1', [ctId]);
  return row;
}

beforeAll(async () => {
  pg = await startOwnPostgres('sdc_runner_faults');
  storageDir = await mkdtemp(path.join(tmpdir(), 'runner-faults-storage-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  service = await startService(
    {
      ROLE: 'all',
      DATABASE_URL: pg.url,
      STORAGE_DIR: storageDir,
      PUBLIC_BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
      PIPELINE_STEP_DELAY_MS: '1200',
      JOB_EXPIRE_SECONDS: '20',
      QUEUE_MAINTENANCE_SECONDS: '1',
      APP_DOWNLOAD_CREDITS: String(APP_PRICE),
    },
    port,
  );
  const email = `runner-${randomBytes(4).toString('hex')}@example.org`;
  expect((await runCli(['user', 'create', '--email', email, '--password', PASSWORD], { DATABASE_URL: pg.url })).code).toBe(0);
  expect((await runCli(['wallet', 'credit', '--email', email, '--credits', '10000'], { DATABASE_URL: pg.url })).code).toBe(0);
  owner = new HttpClient(baseUrl);
  expect((await owner.post('/api/v1/auth/login/', { email, password: PASSWORD })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill('SIGTERM');
    await exitOf(service);
  }
  await pg?.dispose();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe('a database outage in the middle of a job', () => {
  jest.setTimeout(180_000);

  it('is retried: the assembly completes, charged once', async () => {
    const res = await owner.post('/api/v1/dmgen/assemble/', {
      title: 'Outage Assembly',
      generate: false,
      data: { label: 'Outage Data', components: [{ label: 'Outage Flag', data_type: 'XdBoolean' }] },
    });
    expect(res.status).toBe(202);
    await outageAt(res.body.job_ct_id, 'agent_processing');
    expect(await finalJob(res.body.job_ct_id)).toMatchObject({ status: 'completed', step: 'done', error: null, cost_credits: 600 });
    const row = await jobRow(res.body.job_ct_id);
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(
      await query("SELECT amount_credits::int AS amount FROM ledger_entries WHERE job_id = $1 AND kind IN ('charge', 'refund')", [row.id]),
    ).toEqual([{ amount: -600 }]);
  });

  it('is retried: the upload completes with its draft model', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Name,Count\nAda,3\nGrace,5\n']), 'outage.csv');
    const res = await owner.post('/api/v1/uploader/api/data-sources/', form);
    expect(res.status).toBe(202);
    await outageAt(res.body.job.ct_id, 'parsed');
    const job = await finalJob(res.body.job.ct_id);
    expect(job).toMatchObject({ status: 'completed', step: 'done', error: null, result: { columns: [{ label: 'Name' }, { label: 'Count' }] } });
    expect((await jobRow(res.body.job.ct_id)).attempts).toBeGreaterThanOrEqual(2);
  });

  it('is retried: the application generation completes, charged once', async () => {
    const assembled = await owner.post('/api/v1/dmgen/assemble/', {
      title: 'Outage App',
      generate: false,
      data: { label: 'Outage App Data', components: [{ label: 'App Flag', data_type: 'XdBoolean' }] },
    });
    const model = await finalJob(assembled.body.job_ct_id);
    expect(model.status).toBe('completed');
    const res = await owner.post(`/api/v1/dmgen/dms/${model.dm_ct_id}/generate_app/`, { async: true });
    expect(res.status).toBe(202);
    await outageAt(res.body.job_ct_id, 'generating');
    expect(await finalJob(res.body.job_ct_id)).toMatchObject({
      status: 'completed',
      step: 'done',
      cost_credits: APP_PRICE,
      result: { profile: 'os' },
    });
    const row = await jobRow(res.body.job_ct_id);
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(
      await query("SELECT kind, amount_credits::int AS amount FROM ledger_entries WHERE job_id = $1 AND kind IN ('charge', 'refund') ORDER BY id", [
        row.id,
      ]),
    ).toEqual([{ kind: 'charge', amount: -APP_PRICE }]);
    expect(service.exitCode).toBeNull();
  });
});
