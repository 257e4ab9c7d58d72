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
import { JOB_FIELDS, subscribe } from '../support/subscriptions';

/** The gateway (ROLE=all, `node dist/src/main.js`) on a Postgres cluster of its own, which this test stops and
 * starts again while clients keep writing. */
const REQUEST_BOUND_MS = 15_000;
const WRITERS = 4;
const PASSWORD = 'correct horse battery';

interface Answer {
  phase: 'before' | 'outage' | 'after';
  status: number | 'timeout' | 'network';
  ms: number;
  contentType: string;
  body: any;
}

interface Writer {
  client: HttpClient;
  created: Array<{ id: number; name: string }>;
  revoked: number[];
  answers: Answer[];
}

let pg: OwnPostgres;
let service: ChildProcess & { output: () => string };
let baseUrl: string;
let storageDir: string;
let phase: Answer['phase'] = 'before';

async function createUser(credits = 0): Promise<string> {
  const email = `faults-${randomBytes(4).toString('hex')}@example.org`;
  const env = { DATABASE_URL: pg.url };
  expect((await runCli(['user', 'create', '--email', email, '--password', PASSWORD], env)).code).toBe(0);
  if (credits) expect((await runCli(['wallet', 'credit', '--email', email, '--credits', String(credits)], env)).code).toBe(0);
  return email;
}

async function signIn(email: string): Promise<HttpClient> {
  const client = new HttpClient(baseUrl);
  const res = await client.post('/api/v1/auth/login/', { email, password: PASSWORD });
  expect(res.status).toBe(200);
  return client;
}

/** One request with the client's session, bounded by REQUEST_BOUND_MS; records how it was answered. */
async function timed(writer: Writer, method: 'POST', route: string): Promise<Answer> {
  const started = Date.now();
  const answer: Answer = { phase, status: 'network', ms: 0, contentType: '', body: undefined };
  try {
    const res = await fetch(baseUrl + route, {
      method,
      headers: {
        'content-type': 'application/json',
        cookie: `sessionid=${writer.client.cookie('sessionid')}; csrftoken=${writer.client.cookie('csrftoken')}`,
        'x-csrftoken': writer.client.cookie('csrftoken')!,
      },
      body: JSON.stringify(route.endsWith('/api-tokens/') ? { name: `w-${randomBytes(6).toString('hex')}` } : {}),
      signal: AbortSignal.timeout(REQUEST_BOUND_MS),
    });
    answer.status = res.status;
    answer.contentType = res.headers.get('content-type') ?? '';
    const text = await res.text();
    try {
      answer.body = JSON.parse(text);
    } catch {
      answer.body = text.slice(0, 200);
    }
  } catch (error) {
    answer.status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
    answer.body = String(error);
  }
  answer.ms = Date.now() - started;
  writer.answers.push(answer);
  return answer;
}

/** Creates a key, then revokes it; both are writes, counted only when answered 2xx. */
async function writeLoop(writer: Writer, running: () => boolean): Promise<void> {
  let unrevoked: number | null = null;
  while (running()) {
    if (unrevoked !== null) {
      const res = await timed(writer, 'POST', `/api/v1/auth/api-tokens/${unrevoked}/revoke/`);
      if (res.status === 200) {
        writer.revoked.push(unrevoked);
        unrevoked = null;
      }
    } else {
      const res = await timed(writer, 'POST', '/api/v1/auth/api-tokens/');
      if (res.status === 201) {
        writer.created.push({ id: res.body.id, name: res.body.name });
        unrevoked = res.body.id;
      }
    }
    const last = writer.answers.at(-1)!;
    if (typeof last.status !== 'number' || last.status >= 300) await new Promise((r) => setTimeout(r, 100));
  }
}

/** A mixed assembly (one new component): a queued job the worker side of the service runs. */
async function assemble(client: HttpClient, title: string): Promise<string> {
  const res = await client.post('/api/v1/dmgen/assemble/', {
    title,
    data: { label: `${title} Data`, components: [{ label: 'Survived', data_type: 'XdBoolean' }] },
  });
  expect(res.status).toBe(202);
  return res.body.job_ct_id as string;
}

const finalOf = (ctId: string) => (job: { ctId: string; status: string }) =>
  job.ctId === ctId && (job.status === 'completed' || job.status === 'failed');

async function readyz(): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(REQUEST_BOUND_MS) });
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
}

beforeAll(async () => {
  pg = await startOwnPostgres();
  storageDir = await mkdtemp(path.join(tmpdir(), 'faults-pg-storage-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  service = await startService(
    { ROLE: 'all', DATABASE_URL: pg.url, STORAGE_DIR: storageDir, PUBLIC_BASE_URL: baseUrl, LOG_LEVEL: 'warn', QUEUE_MAINTENANCE_SECONDS: '2' },
    port,
  );
}, 120_000);

afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill('SIGTERM');
    await exitOf(service);
  }
  await pg?.dispose();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe('Postgres stopped and started again under write traffic', () => {
  jest.setTimeout(120_000);

  it('answers 503 during the outage within the bound, reconnects by itself and keeps every acknowledged write', async () => {
    const writers: Writer[] = [];
    for (let i = 0; i < WRITERS; i++) writers.push({ client: await signIn(await createUser()), created: [], revoked: [], answers: [] });
    const jobOwnerEmail = await createUser(5000);
    const jobOwner = await signIn(jobOwnerEmail);
    // Opened before the outage: after it, job events must still reach this subscriber (LISTEN reconnected).
    const myJobs = subscribe(baseUrl, `subscription { myJobs { ${JOB_FIELDS} } }`, 'myJobs', { cookie: `sessionid=${jobOwner.cookie('sessionid')}` });

    const before = await assemble(jobOwner, 'Before the outage');
    expect(await myJobs.until(finalOf(before), 60_000)).toMatchObject({ status: 'completed' });

    let running = true;
    const loops = writers.map((w) => writeLoop(w, () => running));
    try {
      await waitFor(async () => writers.every((w) => w.created.length > 0), Boolean, 20_000, 'a first write per writer');

      phase = 'outage';
      const outageStarted = Date.now();
      await pg.stop();
      const down = await waitFor(readyz, (r) => r.status !== 200, 20_000, 'readyz reporting the outage');
      expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'unreachable' } });
      // Keep writing into the outage until every writer has been refused at least once.
      await waitFor(
        async () => writers.every((w) => w.answers.some((a) => a.phase === 'outage' && a.status !== 200 && a.status !== 201)),
        Boolean,
        30_000,
        'refusals during the outage',
      );
      // GraphQL over the same services refuses the same way, in its own shape.
      const graphql = await jobOwner.graphql('{ wallet { balanceCredits } }');
      expect(graphql.status).toBe(503);
      expect(graphql.body.data ?? null).toBeNull();
      expect(graphql.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'database_unavailable' }) })]);
      // Without credentials the context needs no database; the resolver then meets the outage.
      const anonymous = await new HttpClient(baseUrl).graphql('mutation { login(email: "nobody@example.org", password: "x") { csrfToken } }');
      expect(anonymous.status).toBe(503);
      expect(anonymous.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'database_unavailable' }) })]);
      // A public read is counted against the read limit first, in the database: the outage answers the same way.
      const publicRead = await new HttpClient(baseUrl).graphql('{ catalogComponents { count } }');
      expect(publicRead.status).toBe(503);
      expect(publicRead.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'database_unavailable' }) })]);
      await new Promise((r) => setTimeout(r, 4000));
      await pg.start();
      phase = 'after';
      const up = await waitFor(readyz, (r) => r.status === 200, 30_000, 'readyz after Postgres returned');
      const outageSeconds = (Date.now() - outageStarted) / 1000;
      expect(up.body).toEqual({ status: 'ready', database: 'ok', storage: 'ok' });
      await waitFor(
        async () => writers.every((w) => w.answers.some((a) => a.phase === 'after' && (a.status === 200 || a.status === 201))),
        Boolean,
        30_000,
        'a successful write per writer after the outage',
      );
      running = false;
      await Promise.all(loops);

      const answers = writers.flatMap((w) => w.answers);
      const refused = answers.filter((a) => a.status !== 200 && a.status !== 201);
      const during = answers.filter((a) => a.phase === 'outage');
      const summary = {
        outageSeconds,
        requests: answers.length,
        acknowledged: writers.reduce((n, w) => n + w.created.length + w.revoked.length, 0),
        refused: refused.length,
        maxOutageLatencyMs: Math.max(...during.map((a) => a.ms)),
        readyzDuringOutageMs: down.ms,
      };
      console.log(`postgres outage: ${JSON.stringify(summary)}`);

      // Nothing hung and nothing dropped the connection: every request got an answer before REQUEST_BOUND_MS aborted
      // it (a hang guard, not a speed bound: an abort is recorded as 'timeout').
      expect(answers.filter((a) => typeof a.status !== 'number')).toEqual([]);
      // Refusals are the contract's JSON error, 503 database_unavailable, never a 500 or an HTML page.
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect({ status: answer.status, contentType: answer.contentType, body: answer.body }).toEqual({
          status: 503,
          contentType: expect.stringContaining('application/json'),
          body: { error: expect.any(String), error_type: 'database_unavailable' },
        });
      }

      // Every acknowledged write is in the database.
      const db = new Client({ connectionString: pg.url });
      await db.connect();
      try {
        const created = writers.flatMap((w) => w.created);
        const { rows } = await db.query<{ id: string; name: string; revoked: boolean }>(
          'SELECT id, name, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = ANY($1::bigint[])',
          [created.map((k) => k.id)],
        );
        const stored = new Map(rows.map((r) => [Number(r.id), r]));
        expect(created.filter((k) => stored.get(k.id)?.name !== k.name)).toEqual([]);
        const revoked = writers.flatMap((w) => w.revoked);
        expect(revoked.filter((id) => !stored.get(id)?.revoked)).toEqual([]);
        console.log(
          `postgres outage: acknowledged creates ${created.length}, found ${stored.size}; acknowledged revokes ${revoked.length}, found ${revoked.filter((id) => stored.get(id)?.revoked).length}`,
        );
      } finally {
        await db.end();
      }

      // pg-boss and the job event hub came back: a job enqueued now completes, and the subscriber opened before
      // the outage gets its final state, even when the job finishes before the event listener has reconnected.
      const jobCtId = await assemble(jobOwner, 'After the outage');
      expect(await myJobs.until(finalOf(jobCtId), 60_000)).toMatchObject({ status: 'completed', step: 'done' });
      expect((await jobOwner.get(`/api/v1/jobs/${jobCtId}/`)).body).toMatchObject({ status: 'completed' });
      expect(service.exitCode).toBeNull();
    } finally {
      running = false;
      await Promise.all(loops);
      await myJobs.close();
    }
  });
});
