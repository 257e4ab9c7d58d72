import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../src/db/embedded-postgres';
import { makeUser, PASSWORD } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { HttpClient } from '../support/http';
import { libraryComponent } from '../support/catalog-factories';
import { exitOf, startService } from '../support/process';
import { ASSEMBLE, jobsSettled, mixedBody, moneyAudit, moneyState } from './money-helpers';

/** The service (ROLE=all, `node dist/src/main.js`) killed with SIGKILL at a random moment while 20 reuse and 20
 * mixed assemblies are in flight, ten times, then left to finish: no charge without its model or refund, no
 * model without its charge, no hold left open. */
const ROUNDS = 10;
const PER_PATH = 20;

let app: TestApp;
let service: (ChildProcess & { output: () => string }) | null = null;
beforeAll(async () => {
  // The reuse path's request holds left open by a kill are released by the sweep once older than the TTL.
  app = await startTestApp({ requestHoldTtlSeconds: 1 }, { workers: false });
});
afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill('SIGKILL');
    await exitOf(service);
  }
  await app.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGKILL of the service during concurrent charges', () => {
  jest.setTimeout(600_000);

  it('ten kills at random moments of 20 reuse and 20 mixed assemblies: every charge has its model or refund, every hold closes', async () => {
    const port = await freePort();
    const env = {
      ROLE: 'all',
      DATABASE_URL: app.databaseUrl,
      STORAGE_DIR: app.services.settings.storageDir,
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      JOB_EXPIRE_SECONDS: '8',
      QUEUE_MAINTENANCE_SECONDS: '1',
      REQUEST_HOLD_TTL_SECONDS: '1',
    };
    const reused = (await libraryComponent(app.services, { label: 'Crash Reused' })).ctId;
    const user = await makeUser(app.services, { credits: 10_000_000 });
    const client = new HttpClient(`http://127.0.0.1:${port}`);
    const killDelays: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      service = await startService(env, port);
      if (round === 0) expect((await client.post('/api/v1/auth/login/', { email: user.email, password: PASSWORD })).status).toBe(200);
      const requests = Array.from({ length: 2 * PER_PATH }, (_, i) => {
        const body =
          i % 2 === 0
            ? { title: `Reuse r${round} n${i}`, generate: false, data: { label: 'Reuse Data', components: [{ ct_id: reused }] } }
            : mixedBody(`Mixed r${round} n${i}`);
        return client.post(ASSEMBLE, body).catch(() => null);
      });
      const delay = 100 + Math.floor(Math.random() * 1500);
      killDelays.push(delay);
      await sleep(delay);
      service.kill('SIGKILL');
      expect((await exitOf(service)).signal).toBe('SIGKILL');
      await Promise.all(requests);
    }
    service = await startService(env, port);
    await jobsSettled(app.services.db, user.id, 240_000);
    // A job whose retries all died is failed by the lost-job sweep, which releases its hold.
    await app.services.jobs.failLostJobs();
    // A reuse request killed between its hold and its capture: the sweep releases the hold, with what it built.
    await sleep(1500);
    await app.services.ledger.releaseEndedJobHolds();

    const db = app.services.db;
    const state = await moneyState(db, user.id);
    expect({ balance: state.ledgerBalance, held: state.held, ledgerHeld: state.ledgerHeld }).toEqual({
      balance: state.balance,
      held: 0,
      ledgerHeld: 0,
    });
    expect(state.captures + state.releases).toBe(state.holds);

    const [reuse] = await db.query(
      `SELECT
         (SELECT count(*)::int FROM ledger_entries c WHERE c.user_id = $1 AND c.kind = 'charge' AND c.job_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.idempotency_key = 'refund:' || c.id)) AS "paidCharges",
         (SELECT count(*)::int FROM ledger_entries c WHERE c.user_id = $1 AND c.kind = 'charge' AND c.job_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM data_models dm WHERE dm.owner_id = $1 AND 'assemble: ' || dm.title = c.reason)
            AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.idempotency_key = 'refund:' || c.id)) AS "chargesWithoutModel",
         (SELECT count(*)::int FROM data_models dm WHERE dm.owner_id = $1 AND dm.title LIKE 'Reuse %') AS models`,
      [user.id],
    );
    expect(reuse.chargesWithoutModel).toBe(0);
    expect(reuse.models).toBe(reuse.paidCharges);

    const [mixed] = await db.query(
      `SELECT
         (SELECT count(*)::int FROM jobs WHERE user_id = $1 AND status NOT IN ('completed', 'failed')) AS open,
         (SELECT count(*)::int FROM jobs j WHERE j.user_id = $1 AND j.status = 'completed'
            AND (SELECT count(*) FROM ledger_entries c WHERE c.job_id = j.id AND c.kind = 'charge') <> 1) AS "completedNotCharged",
         (SELECT count(*)::int FROM jobs j WHERE j.user_id = $1 AND j.status = 'failed'
            AND EXISTS (SELECT 1 FROM ledger_entries c WHERE c.job_id = j.id AND c.kind = 'charge')) AS "failedCharged",
         (SELECT count(*)::int FROM data_models dm WHERE dm.owner_id = $1 AND dm.title LIKE 'Mixed %') AS models,
         (SELECT count(*)::int FROM ledger_entries c WHERE c.user_id = $1 AND c.kind = 'charge' AND c.job_id IS NOT NULL) AS charges`,
      [user.id],
    );
    expect(mixed).toMatchObject({ open: 0, completedNotCharged: 0, failedCharged: 0 });
    expect(mixed.models).toBe(mixed.charges);
    // The kills must have hit work in flight: something was charged and something was interrupted.
    expect(reuse.paidCharges + mixed.charges).toBeGreaterThan(0);
    expect(await moneyAudit(app.services.db)).toEqual([]);
    expect(killDelays).toHaveLength(ROUNDS);
  });
});
