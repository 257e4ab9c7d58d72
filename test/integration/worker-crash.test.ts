import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { ROOT, exitOf } from '../support/process';
import { JOB_FIELDS, subscribe } from '../support/subscriptions';

/** Real worker processes (ROLE=worker, `node dist/src/main.js`) on the test database; the in-process gateway
 * runs no workers, so every step seen by its subscriber was made in another process. */
const EXPIRE_SECONDS = 6;

function startWorker(app: TestApp): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: app.databaseUrl,
      STORAGE_DIR: app.services.settings.storageDir,
      PUBLIC_BASE_URL: app.url,
      PIPELINE_STEP_DELAY_MS: '600',
      JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
      QUEUE_MAINTENANCE_SECONDS: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ jobExpireSeconds: EXPIRE_SECONDS, queueMaintenanceSeconds: 1 }, { workers: false });
});
afterAll(() => app.close());

describe('a worker killed with SIGKILL in the middle of a step', () => {
  jest.setTimeout(120000);

  it.each(['modeling', 'finalizing', 'generating'])('during %s: a new worker finishes the job, charging once and minting once', async (killAt) => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const res = await client.post('/api/v1/dmgen/assemble/', {
      title: `Crash at ${killAt}`,
      data: {
        label: 'Crash Data',
        components: [{ label: 'Weight', data_type: 'XdQuantity', units: 'kg' }],
        clusters: [{ label: 'More', components: [{ label: 'Seen', data_type: 'XdBoolean' }] }],
      },
    });
    expect(res.status).toBe(202);
    const jobCtId = res.body.job_ct_id as string;
    const sub = subscribe(
      app.url,
      `subscription($id: String!) { jobUpdated(ctId: $id) { ${JOB_FIELDS} } }`,
      'jobUpdated',
      { cookie: `sessionid=${client.cookie('sessionid')}` },
      { id: jobCtId },
    );

    const first = startWorker(app);
    await sub.until((j) => j.step === killAt, 60000);
    first.kill('SIGKILL');
    expect((await exitOf(first)).signal).toBe('SIGKILL');
    const [stuck] = await app.services.db.query('SELECT status FROM jobs WHERE ct_id = $1', [jobCtId]);
    expect(stuck.status).toBe('running');

    const second = startWorker(app);
    try {
      const final = await sub.until((j) => j.status === 'completed' || j.status === 'failed', 90000);
      expect(final).toMatchObject({ status: 'completed', step: 'done', costCredits: 800 });
    } finally {
      second.kill('SIGTERM');
      await exitOf(second);
      await sub.close();
    }
    const [job] = await app.services.db.query('SELECT id, attempts FROM jobs WHERE ct_id = $1', [jobCtId]);
    expect(job.attempts).toBeGreaterThanOrEqual(2);
    const charges = await app.services.db.query("SELECT amount_credits::int AS amount FROM ledger_entries WHERE job_id = $1 AND kind = 'charge'", [
      job.id,
    ]);
    expect(charges).toEqual([{ amount: -800 }]);
    const [{ minted }] = await app.services.db.query('SELECT count(*)::int AS minted FROM components WHERE mint_key LIKE $1', [`job:${jobCtId}:%`]);
    expect(minted).toBe(2);
    const [{ models }] = await app.services.db.query('SELECT count(*)::int AS models FROM data_models WHERE owner_id = $1', [user.id]);
    expect(models).toBe(1);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(4200);
  });
});
