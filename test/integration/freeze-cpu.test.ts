import { readFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../src/db/embedded-postgres';
import { saveGraph } from '../../src/rdf/app-graph-store';
import { expectWithinBaseline } from '../support/baseline';
import { issueKey, signedIn } from '../support/factories';
import { probe, type ProbeStats } from '../support/latency-probe';
import { exitOf, startService } from '../support/process';
import { openSocket } from '../support/raw-socket';
import { within } from '../support/wait';
import { form, REFERENCE_DIR, SP_CT_ID, startAppUnderTest, type AppUnderTest } from './app-helpers';

/** The hostile suite of issue 14 against a service in its own process (`npm run build` first), so its peak RSS
 * is its own: this process only sets up the database, keys and data, and plays the clients. */
let app: AppUnderTest;
let service: ChildProcess & { output: () => string };
let url: string;
let appKey: string;
let probeKey: string;
let readKey: string;
beforeAll(async () => {
  app = await startAppUnderTest({}, { workers: false });
  appKey = app.key;
  probeKey = (await app.services.app.keys.create({ organization: 'Probe Org', contactEmail: 'probe@example.org' })).plaintext;
  const { client } = await signedIn(app.url, app.services);
  readKey = (await issueKey(client, { scopes: ['read'] })).key;
  const ntriples = Array.from({ length: 10_000 }, (_, i) => `<urn:n:${i % 100}> <urn:p:${i % 7}> <urn:n:${(i * 31) % 100}> .`).join('\n');
  await saveGraph(app.services.db, { graphUri: 'urn:freeze:graph', source: 'instance', ntriples, tripleCount: 10_000 });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  service = await startService(
    {
      ROLE: 'gateway',
      DATABASE_URL: app.databaseUrl,
      STORAGE_DIR: app.storageDir,
      SCHEMA_CATALOG_DIR: REFERENCE_DIR,
      PUBLIC_BASE_URL: url,
      SPARQL_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'warn',
    },
    port,
  );
}, 120_000);
afterAll(async () => {
  if (service) {
    service.kill('SIGTERM');
    await exitOf(service);
  }
  await app?.services.cpu.close();
  await app?.services.app.graphs.close();
  await app?.close();
});

async function call(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const response = await fetch(url + path, { method, body: init.body, headers: { 'x-api-key': appKey, ...init.headers } });
  return { status: response.status, text: await response.text() };
}

/** The service's peak resident set (VmHWM), in MB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

const root = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><sdc4:dm-${SP_CT_ID} xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/">${body}</sdc4:dm-${SP_CT_ID}>`;

type Seen = (name: string, status: number) => void;

const startProbes = () => Promise.all([probe(`${url}/healthz`), probe(`${url}/api/v1/whoami/`, { 'x-api-key': probeKey })]);

/** Runs `hostile` while /healthz and a cheap key-authenticated GET are called every 10 ms; prints and returns the
 * p99s (and the same probes' p99s over the second before, the baseline), the statuses of each hostile step and the
 * service's peak RSS after each step. */
async function underProbes(label: string, hostile: (seen: Seen) => Promise<void>) {
  const quiet = await startProbes();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const [healthBaseline, cheapBaseline] = [await quiet[0].stop(), await quiet[1].stop()];
  const [health, cheap] = await startProbes();
  const statuses: Record<string, number[]> = {};
  const peaks: Record<string, number> = { start: Math.round(await peakRssMb(service.pid as number)) };
  const seen: Seen = (name, status) => {
    (statuses[name] ??= []).push(status);
    void peakRssMb(service.pid as number).then((mb) => (peaks[name] = Math.round(mb)));
  };
  const started = performance.now();
  try {
    await hostile(seen);
    // At least 2 s of probes, so a short phase's p99 is not the single slowest of a few calls on a busy machine.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2000 - (performance.now() - started))));
  } finally {
    const healthStats = await health.stop();
    const cheapStats = await cheap.stop();
    const peak = await peakRssMb(service.pid as number);
    console.log(
      [
        `freeze (${label}): /healthz p99 ${healthStats.p99.toFixed(1)} ms over ${healthStats.count} calls (${healthBaseline.p99.toFixed(1)} ms before); cheap GET p99 ${cheapStats.p99.toFixed(1)} ms over ${cheapStats.count} calls (${cheapBaseline.p99.toFixed(1)} ms before)`,
        `service peak RSS (VmHWM) ${peak.toFixed(0)} MB, after each step ${JSON.stringify(peaks)}`,
        `statuses ${JSON.stringify(statuses)}`,
      ].join('\n'),
    );
    results.push({ healthStats, cheapStats, healthBaseline, cheapBaseline, peak });
  }
}
const results: Array<{ healthStats: ProbeStats; cheapStats: ProbeStats; healthBaseline: ProbeStats; cheapBaseline: ProbeStats; peak: number }> = [];

/** The last phase's probes: every call answered 200, p99s within ten times the same probes' p99 a moment before
 * (counted as at least 10 and 25 ms: on an idle machine, issue 14's 100 and 250 ms), peak RSS bounded. */
function expectResponsive(): void {
  const { healthStats, cheapStats, healthBaseline, cheapBaseline, peak } = results[results.length - 1];
  expect(healthStats.statuses).toEqual([200]);
  expect(cheapStats.statuses).toEqual([200]);
  // Issue 14: under 400 MB. The Turtle parse is streamed and a SELECT's row cap applies while it runs (measured
  // 314-317 MB on an idle 2-core machine).
  expect(peak).toBeLessThan(400);
  expectWithinBaseline(healthStats.p99, healthBaseline.p99, 10);
  expectWithinBaseline(cheapStats.p99, cheapBaseline.p99, 25);
}

describe('no request can freeze the service', () => {
  it('answers /healthz and a cheap GET quickly while CPU-bound hostile requests end with clear errors', async () => {
    // The hostile bodies are built before the probes start: building them is the test's work, not the service's.
    const body = (xml: string) => JSON.stringify({ xml_content: xml });
    const attributesBody = body(root(`<x ${Array.from({ length: 250_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`));
    const elementsBody = body(root('<a/>'.repeat(2_000_000)));
    const turtle = Array.from({ length: 100_000 }, (_, i) => `<urn:s:${i}> <urn:p> "v${i}" .`).join('\n');
    const validate = (json: string) => call('POST', '/api/v1/validate/xml/', { body: json, headers: { 'content-type': 'application/json' } });
    await underProbes('XML, SPARQL, Turtle', async (seen) => {
      const manyAttributes = await validate(attributesBody);
      seen('250k attributes', manyAttributes.status);
      expect(manyAttributes.status).toBe(400);
      expect(manyAttributes.text).toContain('XML_MAX_ATTRIBUTES_PER_ELEMENT');

      const manyElements = await validate(elementsBody);
      seen('2M elements', manyElements.status);
      expect([400, 413]).toContain(manyElements.status);
      expect(manyElements.text).toMatch(/XML_MAX_ELEMENTS|limit is/);

      const join = 'SELECT * WHERE { ?a ?p ?b . ?b ?q ?c . ?c ?r ?d . ?d ?s ?e }';
      const sparql = await call('GET', `/api/v1/sparql?query=${encodeURIComponent(join)}`);
      seen('4-way SPARQL join', sparql.status);
      expect(sparql.status).toBe(422);
      expect(sparql.text).toMatch(/SPARQL_TIMEOUT_MS|SPARQL_MAX_ROWS/);
      const after = await call('GET', `/api/v1/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`);
      expect(after.status).toBe(200);

      const upload = await call('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: turtle }]) });
      seen('100k-triple Turtle', upload.status);
      expect([201, 413, 422]).toContain(upload.status);
    });
    expectResponsive();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  }, 180_000);

  it('refuses GraphQL alias floods past the limits, answers those at them, and closes a socket of 3,000 subscriptions with 4429', async () => {
    const headers = { authorization: `Token ${readKey}`, 'content-type': 'application/json' };
    const graphql = (query: string) => call('POST', '/graphql', { body: JSON.stringify({ query }), headers });
    // One operation first, so the service's first GraphQL request (its warm-up) is not measured as the floods'; and
    // a pause, so what the previous test left running (the 100k-triple graph's storage) is not either.
    expect((await graphql('{ me { email } }')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await underProbes('GraphQL floods past the limits', async (seen) => {
      // 8 floods of 2,400 cheap aliases from one read-only key, at once: refused before they run, naming the limit.
      const aliases = `{ ${Array.from({ length: 2_400 }, (_, i) => `a${i}: me { email }`).join(' ')} }`;
      const floods = await Promise.all(Array.from({ length: 8 }, () => graphql(aliases)));
      for (const flood of floods) seen('GraphQL alias flood', flood.status);
      for (const flood of floods) {
        expect(flood.status).toBe(400);
        expect(flood.text).toMatch(/QUERY_TOO_COMPLEX/);
        expect(flood.text).toMatch(/GRAPHQL_MAX_ROOT_FIELDS|GRAPHQL_MAX_COST/);
      }
    });
    expectResponsive();

    await underProbes('GraphQL floods at the limits', async (seen) => {
      // 8 floods at the limits (50 root aliases, 500 selections): answered correctly, or 429 for the caller.
      const fields = Array.from({ length: 9 }, (_, i) => `e${i}: email`).join(' ');
      const atLimit = `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: me { ${fields} }`).join(' ')} }`;
      const answered = await Promise.all(Array.from({ length: 8 }, () => graphql(atLimit)));
      for (const flood of answered) seen('GraphQL flood at the limits', flood.status);
      for (const flood of answered) {
        expect([200, 429]).toContain(flood.status);
        if (flood.status === 200) expect(Object.keys(JSON.parse(flood.text).data)).toHaveLength(50);
      }
    });
    // Floods at the limits run: 8 x 500 resolutions share the one event loop (measured p99s 7-8 ms idle; 43-105 and
    // 68-304 ms with a load average of 10 on 2 cores).
    expectResponsive();

    // Likewise one socket with one subscription first (the service's first WebSocket use).
    const warm = openSocket(url, { params: { authorization: `Token ${readKey}` } });
    expect(await warm.acked).toBe(true);
    warm.subscribe('warm', 'subscription { myJobs { ctId status } }');
    await new Promise((resolve) => setTimeout(resolve, 200));
    warm.close();
    await underProbes('3,000 subscriptions', async (seen) => {
      // 3,000 subscriptions on one socket: closed with graphql-ws's 4429, not left silent.
      const socket = openSocket(url, { params: { authorization: `Token ${readKey}` } });
      expect(await socket.acked).toBe(true);
      for (let i = 0; i < 3_000; i++) socket.subscribe(`s${i}`, 'subscription { myJobs { ctId status } }');
      const closed = await within(socket.closed, 10_000, null);
      seen('3,000 subscriptions (close code)', closed?.code ?? 0);
      socket.close();
      expect(closed).toMatchObject({ code: 4429 });
    });
    // Handling the subscribe messages up to the 4429 close (measured p99s 24 ms idle; 113-330 ms with a load
    // average of 10 on 2 cores).
    expectResponsive();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  }, 120_000);
});
