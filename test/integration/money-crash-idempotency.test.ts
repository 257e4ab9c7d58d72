import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../src/db/embedded-postgres';
import { makeUser, PASSWORD } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { HttpClient } from '../support/http';
import { libraryComponent } from '../support/catalog-factories';
import { exitOf, startService } from '../support/process';
import { FIXTURES, SDC4_REFERENCE_DIR, STATE_POPULATION_CT_ID, statePopulationXml } from '../unit/xml/fixtures';
import { ASSEMBLE, jobsSettled, mixedBody, moneyAudit, moneyState } from './money-helpers';

/**
 * The service (ROLE=all, `node dist/src/main.js`) killed with SIGKILL at random moments while 20 requests of each
 * charging door are in flight, each with its own Idempotency-Key; after every restart each request is retried with
 * its key until it gets a 2xx or a 4xx (409 idempotency_key_in_use and 429 too_many_requests mean "retry shortly":
 * retried too). Then the
 * money audit: wallet = Σ ledger, held = −Σ open holds = 0 after the sweep, every hold closed once, and no key
 * charged twice: each door's charges equal its answered requests, each charge has one resource or a refund.
 */
const KILLS = 3;
const PER_DOOR = 20;
const APP_PRICE = 50;
/** Short, so the sweep after the last start releases what the kills left open; long enough that a live request on
 * a loaded machine (a reuse build, a VaaS validation) is not swept from under itself. */
const HOLD_TTL_SECONDS = 5;

let app: TestApp;
let service: (ChildProcess & { output: () => string }) | null = null;
beforeAll(async () => {
  app = await startTestApp({ schemaCatalogDir: SDC4_REFERENCE_DIR, requestHoldTtlSeconds: HOLD_TTL_SECONDS }, { workers: false });
  await app.services.packages.importPackage(path.join(FIXTURES, 'sdc4/packages/StatePopulation'));
}, 180_000);
afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill('SIGKILL');
    await exitOf(service);
  }
  await app.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Door = 'reuse' | 'mixed' | 'draft' | 'upload' | 'app' | 'vaas';
const DOORS: Door[] = ['reuse', 'mixed', 'draft', 'upload', 'app', 'vaas'];

interface Pending {
  door: Door;
  n: number;
  key: string;
  status: number | null;
  body: any;
}

describe('SIGKILL during charging requests with Idempotency-Keys, then retries', () => {
  jest.setTimeout(900_000);

  it('every door: retried until answered, no key charged twice, the wallet equals the ledger, no hold left open', async () => {
    const port = await freePort();
    const env = {
      ROLE: 'all',
      DATABASE_URL: app.databaseUrl,
      STORAGE_DIR: app.services.settings.storageDir,
      SCHEMA_CATALOG_DIR: SDC4_REFERENCE_DIR,
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      JOB_EXPIRE_SECONDS: '8',
      QUEUE_MAINTENANCE_SECONDS: '1',
      IDEMPOTENCY_LEASE_SECONDS: '3',
      REQUEST_HOLD_TTL_SECONDS: String(HOLD_TTL_SECONDS),
      APP_DOWNLOAD_CREDITS: String(APP_PRICE),
    };
    const reused = (await libraryComponent(app.services, { label: 'Crash Key Reused' })).ctId;
    const user = await makeUser(app.services, { credits: 10_000_000, staff: true });
    const client = new HttpClient(`http://127.0.0.1:${port}`);

    const send = (p: Pending) => {
      const headers = { 'Idempotency-Key': p.key };
      switch (p.door) {
        case 'reuse':
          return client.post(
            ASSEMBLE,
            { title: `Key Reuse ${p.n}`, generate: false, data: { label: 'Reuse Data', components: [{ ct_id: reused }] } },
            headers,
          );
        case 'mixed':
          return client.post(ASSEMBLE, mixedBody(`Key Mixed ${p.n}`), headers);
        case 'draft':
          return client.post('/api/v1/dmgen/clusters/', { label: `Key Draft ${p.n}` }, headers);
        case 'upload': {
          const form = new FormData();
          form.append('file', new Blob([`Name,Count,When\nAda,${p.n},2024-01-01\n`]), `key-upload-${p.n}.csv`);
          return client.request('POST', '/api/v1/uploader/api/data-sources/', form, headers);
        }
        case 'app':
          return client.post(`/api/v1/dmgen/dms/${STATE_POPULATION_CT_ID}/generate_app/?async=true`, {}, headers);
        case 'vaas':
          return client.request('POST', '/api/v1/vaas/validate/sign/?mode=strict', statePopulationXml(), {
            ...headers,
            'content-type': 'application/xml',
          });
      }
    };
    const pending: Pending[] = DOORS.flatMap((door) =>
      Array.from({ length: PER_DOOR }, (_, n) => ({ door, n, key: `crash-${door}-${n}`, status: null, body: null })),
    );
    const unanswered = () =>
      pending.filter(
        (p) => p.status === null || p.status >= 500 || p.status === 429 || (p.status === 409 && p.body?.error_type === 'idempotency_key_in_use'),
      );
    const attempt = async (p: Pending) => {
      try {
        const res = await send(p);
        p.status = res.status;
        p.body = res.body;
      } catch {
        p.status = null;
      }
    };

    const killDelays: number[] = [];
    for (let kill = 0; kill <= KILLS; kill++) {
      service = await startService(env, port);
      if (kill === 0) expect((await client.post('/api/v1/auth/login/', { email: user.email, password: PASSWORD })).status).toBe(200);
      const inFlight = Promise.all(unanswered().map(attempt));
      if (kill === KILLS) {
        // The last start is left alone: retry until every request has its answer.
        await inFlight;
        for (let round = 0; unanswered().length && round < 60; round++) {
          await sleep(1000);
          await Promise.all(unanswered().map(attempt));
        }
        break;
      }
      const delay = 200 + Math.floor(Math.random() * 2000);
      killDelays.push(delay);
      await sleep(delay);
      service.kill('SIGKILL');
      expect((await exitOf(service)).signal).toBe('SIGKILL');
      await inFlight;
    }
    expect(unanswered().map((p) => `${p.key}: ${p.status} ${JSON.stringify(p.body)}`)).toEqual([]);
    expect(pending.filter((p) => p.status! >= 300).map((p) => `${p.key}: ${p.status} ${JSON.stringify(p.body)}`)).toEqual([]);

    await jobsSettled(app.services.db, user.id, 300_000);
    await app.services.jobs.failLostJobs();
    await sleep(HOLD_TTL_SECONDS * 1000 + 500);
    await app.services.ledger.releaseEndedJobHolds();

    const db = app.services.db;
    const state = await moneyState(db, user.id);
    expect({ balance: state.ledgerBalance, held: state.held, ledgerHeld: state.ledgerHeld }).toEqual({
      balance: state.balance,
      held: 0,
      ledgerHeld: 0,
    });
    expect(state.captures + state.releases).toBe(state.holds);

    // No key charged twice: one resource per key, each answered with the resource its key recorded.
    const [made] = await db.query(
      `SELECT
         (SELECT count(*)::int FROM data_models WHERE owner_id = $1 AND title LIKE 'Key Reuse %') AS reuse,
         (SELECT count(DISTINCT title)::int FROM data_models WHERE owner_id = $1 AND title LIKE 'Key Reuse %') AS "reuseTitles",
         (SELECT count(*)::int FROM jobs WHERE user_id = $1 AND kind = 'assemble') AS mixed,
         (SELECT count(*)::int FROM clusters WHERE owner_id = $1 AND label LIKE 'Key Draft %') AS draft,
         (SELECT count(*)::int FROM jobs WHERE user_id = $1 AND kind = 'upload') AS upload,
         (SELECT count(*)::int FROM jobs WHERE user_id = $1 AND kind = 'generate_app') AS app,
         (SELECT count(*)::int FROM ledger_entries WHERE user_id = $1 AND kind = 'charge' AND reason LIKE 'vaas validate+sign%') AS vaas`,
      [user.id],
    );
    expect(made).toEqual({
      reuse: PER_DOOR,
      reuseTitles: PER_DOOR,
      mixed: PER_DOOR,
      draft: PER_DOOR,
      upload: PER_DOOR,
      app: PER_DOOR,
      vaas: PER_DOOR,
    });
    const answeredIds = (door: Door, id: (body: any) => string) => new Set(pending.filter((p) => p.door === door).map((p) => id(p.body))).size;
    expect(answeredIds('reuse', (b) => b.ct_id)).toBe(PER_DOOR);
    expect(answeredIds('mixed', (b) => b.job_ct_id)).toBe(PER_DOOR);
    expect(answeredIds('draft', (b) => b.ct_id)).toBe(PER_DOOR);
    expect(answeredIds('upload', (b) => b.job.ct_id)).toBe(PER_DOOR);
    expect(answeredIds('app', (b) => b.job_ct_id)).toBe(PER_DOOR);

    // Every charge has exactly one resource or a refund: direct charges one per reuse model and draft, job charges
    // one per completed job and none for a failed one.
    const [charges] = await db.query(
      `SELECT
         (SELECT count(*)::int FROM ledger_entries c WHERE c.user_id = $1 AND c.kind = 'charge' AND c.reason LIKE 'assemble: Key Reuse %'
            AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.idempotency_key = 'refund:' || c.id)) AS reuse,
         (SELECT count(*)::int FROM ledger_entries c WHERE c.user_id = $1 AND c.kind = 'charge' AND c.reason LIKE 'draft cluster: Key Draft %') AS draft,
         (SELECT count(*)::int FROM jobs j WHERE j.user_id = $1 AND j.status = 'completed'
            AND (SELECT count(*) FROM ledger_entries c WHERE c.job_id = j.id AND c.kind = 'charge') <> 1) AS "completedNotChargedOnce",
         (SELECT count(*)::int FROM jobs j WHERE j.user_id = $1 AND j.status = 'failed'
            AND EXISTS (SELECT 1 FROM ledger_entries c WHERE c.job_id = j.id AND c.kind = 'charge'
              AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.idempotency_key = 'refund:' || c.id))) AS "failedCharged",
         (SELECT string_agg(DISTINCT j.kind || ': ' || left(j.error, 120), ' | ') FROM jobs j WHERE j.user_id = $1 AND j.status = 'failed') AS failures`,
      [user.id],
    );
    expect(charges).toMatchObject({ reuse: PER_DOOR, draft: PER_DOOR, completedNotChargedOnce: 0, failedCharged: 0 });
    if (charges.failures) console.log(`failed jobs (charges refunded): ${charges.failures}`);
    expect(await moneyAudit(app.services.db)).toEqual([]);
    expect(killDelays).toHaveLength(KILLS);
  });
});
