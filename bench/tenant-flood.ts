import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import type { Services } from '../src/container';
import type { Scope } from '../src/entities/api-key.entity';
import { lowerThreadsPriority, otherThreads } from '../src/lib/thread-priority';
import { saveGraph } from '../src/rdf/app-graph-store';
import { percentile } from './measure';
import { recordResults } from './results';
import { startServiceProcess } from './service-process';
import { startBenchService } from './support';

/**
 * Issue 30's "all at once" scenario, shared by test/integration/tenant-flood.test.ts (which asserts on it) and
 * bench:tenant-flood (which reports the victim's absolute p99). Every attack of the issue runs at once against the
 * service in a process of its own, while a victim user calls /healthz, a keyed GET /wallet/ and a paid VaaS strict
 * validation every 50 ms (from a thread of its own, so this process's attack traffic is not counted as the
 * service's latency) and follows its own job through a myJobs subscription. The victim is measured twice: for a
 * few seconds on the quiet service (its baseline), then under the attacks.
 *
 * The attackers' client runs on this process's main thread, on the same cores as the service, which a real
 * attacker's would not: sending and reading hundreds of megabytes at once, it would otherwise take the cores from the
 * victim's thread and from the service alike, and the victim's p99 would measure this client. So once the victim's
 * thread runs (at the process's priority), every other thread of this process lowers its priority to ATTACKER_NICE
 * for both phases: the main thread, and V8's garbage-collection and compiler threads, which mostly collect the
 * attack's garbage (Linux, src/lib/thread-priority.ts; elsewhere nothing changes); they are put back where
 * permitted at the end. The service, its CPU pool and Postgres keep the priorities a deployment gives them.
 */

/** How large each attack is: `FULL_SCALE` is the issue's; `CI_SCALE` keeps every attack kind, smaller. */
export interface FloodScale {
  /** Sockets × GraphQL operations (each a database read) from one read-only key. */
  wsSockets: number;
  wsOperationsPerSocket: number;
  /** Interface B keys flooding validate/xml with an instance of `cpuInstanceBytes`, `cpuWidth` requests at once
   * each, `cpuRounds` times per lane. */
  cpuKeys: number;
  cpuWidth: number;
  cpuRounds: number;
  cpuInstanceBytes: number;
  /** One user's myJobs subscriptions: keys × sockets per key × subscriptions per socket. */
  subscriptionKeys: number;
  subscriptionSocketsPerKey: number;
  subscriptionsPerSocket: number;
  /** Queries queued behind one past SPARQL_TIMEOUT_MS. */
  sparqlQueued: number;
  /** Concurrent GraphQL operations of `estimateAliases` estimate aliases over one `estimateLeaves`-leaf variable,
   * and as many single estimates of that tree over REST. */
  estimateRequests: number;
  estimateAliases: number;
  estimateLeaves: number;
  /** VaaS validations with package=true of an instance of `packageBytes`, `packageWidth` at once. */
  packages: number;
  packageBytes: number;
  packageWidth: number;
  /** The legacy shared model read anonymously: `treeWidth` children repeated on three levels (width³ leaves). */
  treeWidth: number;
  /** Service settings the scenario runs with (env), beyond the defaults. */
  env: Record<string, string>;
}

const MB = 1024 * 1024;

export const FULL_SCALE: FloodScale = {
  wsSockets: 20,
  wsOperationsPerSocket: 100,
  cpuKeys: 2,
  cpuWidth: 32,
  cpuRounds: 2,
  cpuInstanceBytes: 2 * MB,
  subscriptionKeys: 5,
  subscriptionSocketsPerKey: 20,
  subscriptionsPerSocket: 100,
  sparqlQueued: 5,
  estimateRequests: 6,
  estimateAliases: 50,
  estimateLeaves: 9_900,
  packages: 100,
  // The largest instance VaaS takes (8 MiB): with its schema and renderings, a package of about 9 MB.
  packageBytes: 8 * MB - 4096,
  packageWidth: 8,
  treeWidth: 100,
  env: {},
};

/** Every attack kind, sized for a 2-core CI machine: the CPU flood 8 wide per key once (not 32 wide twice), one
 * user's subscriptions over 4 sockets per key (2,000, not 9,900: ten times the per-user cap either way), estimates
 * over a 2,000-leaf tree (not 9,900), 12 VaaS packages of 8 MiB instances against a 40 MB quota (not 100 against
 * 256 MB). */
export const CI_SCALE: FloodScale = {
  ...FULL_SCALE,
  cpuWidth: 8,
  cpuRounds: 1,
  subscriptionSocketsPerKey: 4,
  estimateLeaves: 2_000,
  packages: 12,
  packageWidth: 4,
  env: { VAAS_PACKAGE_QUOTA_BYTES: String(40 * MB) },
};

export interface VictimStats {
  count: number;
  p50: number;
  p99: number;
  /** Status → how many calls answered it. */
  statuses: Record<string, number>;
  /** 200s whose body was not the right answer. */
  wrong: number;
}

type VictimName = 'health' | 'wallet' | 'vaas';

export interface FloodFigures {
  baseline: Record<VictimName, VictimStats>;
  attack: Record<VictimName, VictimStats>;
  /** Each attack's answers: status → count, and what it observed. */
  attacks: Record<string, { statuses: Record<string, number>; wrong: number; note: string }>;
  /** The victim's job: the event seqs its subscription saw, and the seqs the job went through. */
  victimJob: { seen: number[]; expected: number[]; status: string };
  attackSeconds: number;
  /** The service's event-loop delay (ms, prom-client's default metrics, reset by each scrape) in each phase: how
   * long its own thread was busy, apart from the machine's scheduling. */
  eventLoop: Record<'baseline' | 'attack', { p99: number; max: number }>;
}

/** The event-loop delay since the previous scrape of /metrics. */
async function eventLoopDelay(url: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const ms = (name: string) => Number((Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000).toFixed(1));
  return { p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') };
}

/** The project's root whether this runs built (dist/bench) or from source under Jest (bench/). */
const ROOT = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === 'dist' ? '../..' : '..');
const FIXTURES = path.resolve(ROOT, '../shared/fixtures');
const CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
const INSTANCE = path.join(FIXTURES, 'sdc4/packages/StatePopulation', `dm-${CT_ID}.xml`);

/** The victim's calls, on a thread of their own, each every 50 ms; phases are switched by message. */
const VICTIM = `
const { parentPort, workerData } = require('node:worker_threads');
const samples = [];
let phase = 'warm';
let running = true;
parentPort.on('message', (m) => { if (m === 'stop') running = false; else phase = m; });
async function once(call) {
  const started = performance.now();
  let status = 0, wrong = false;
  try {
    const res = await fetch(call.url, { method: call.method, headers: call.headers, body: call.body });
    const text = await res.text();
    status = res.status;
    if (status === 200 && call.expect && !text.includes(call.expect)) wrong = true;
  } catch (e) { status = -1; }
  return { at: performance.timeOrigin + started, ms: performance.now() - started, status, wrong };
}
(async () => {
  // Warm: each CPU-pool thread compiles the model's schema on its first validation (a task goes to an idle thread
  // at random), 100-150 ms that would otherwise land in the quiet baseline as its slowest call.
  for (const call of workerData.calls) for (let i = 0; i < 16; i++) await once(call);
  let tid = null;
  try { tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()); } catch {}
  parentPort.postMessage({ ready: true, tid });
  await Promise.all(workerData.calls.map(async (call) => {
    while (running) {
      const p = phase;
      const r = await once(call);
      if (p !== 'warm') samples.push({ phase: p, name: call.name, ...r });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 50 - r.ms)));
    }
  }));
  parentPort.postMessage(samples);
})();
`;

interface VictimCall {
  name: VictimName;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Text a right 200 contains. */
  expect?: string;
}

function startVictim(calls: VictimCall[]): Promise<{
  /** The victim's thread id (Linux), null elsewhere. */
  tid: number | null;
  phase: (p: string) => void;
  stop: () => Promise<Array<{ phase: string; name: VictimName; at: number; ms: number; status: number; wrong: boolean }>>;
}> {
  const worker = new Worker(VICTIM, { eval: true, workerData: { calls } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (ready: { ready?: boolean; tid?: number | null }) => {
      if (ready?.ready !== true) return reject(new Error(`victim did not start: ${JSON.stringify(ready)}`));
      const done = new Promise<never>((r) => worker.once('message', r));
      resolve({
        tid: ready.tid ?? null,
        phase: (p) => worker.postMessage(p),
        stop: async () => {
          worker.postMessage('stop');
          const samples = await done;
          await worker.terminate();
          return samples;
        },
      });
    });
  });
}

function statsOf(samples: Array<{ ms: number; status: number; wrong: boolean }>): VictimStats {
  const times = samples.map((s) => s.ms);
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const round = (ms: number) => Number((ms ?? 0).toFixed(1));
  return {
    count: samples.length,
    p50: round(times.length ? percentile(times, 50) : 0),
    p99: round(times.length ? percentile(times, 99) : 0),
    statuses,
    wrong: samples.filter((s) => s.wrong).length,
  };
}

/** A graphql-transport-ws socket driven message by message. */
class Socket {
  readonly messages: Array<{ type: string; id?: string; payload?: any }> = [];
  readonly acked: Promise<boolean>;
  readonly closed: Promise<number>;
  private readonly ws: WebSocket;

  constructor(url: string, token: string) {
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    this.ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
    this.acked = new Promise((resolve) => {
      this.ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; id?: string; payload?: unknown };
        this.messages.push(message);
        if (message.type === 'connection_ack') resolve(true);
      });
      void this.closed.then(() => resolve(false));
    });
    this.ws.on('open', () => this.send({ type: 'connection_init', payload: { authorization: `Token ${token}` } }));
  }

  send(message: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  subscribe(id: string, query: string, variables?: Record<string, unknown>): void {
    this.send({ id, type: 'subscribe', payload: { query, variables } });
  }

  close(): void {
    this.ws.close();
  }
}

const tally = (statuses: Record<string, number>, status: number | string) => (statuses[status] = (statuses[status] ?? 0) + 1);

async function lanes(width: number, rounds: number, fn: () => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = 0; i < rounds; i++) await fn();
    }),
  );
}

/** A StatePopulation instance with the data cluster's State element repeated up to `bytes`: schema-invalid (the
 * element may occur once), but all of it parsed and validated. */
function largeInstance(bytes: number): string {
  const xml = readFileSync(INSTANCE, 'utf8');
  const start = xml.indexOf('<sdc4:ms-o2x5o8e6vmu00ypxer768q3n>');
  const end = xml.indexOf('</sdc4:ms-o2x5o8e6vmu00ypxer768q3n>') + '</sdc4:ms-o2x5o8e6vmu00ypxer768q3n>'.length;
  const block = xml.slice(start, end);
  return xml.slice(0, end) + block.repeat(Math.ceil((bytes - xml.length) / block.length)) + xml.slice(end);
}

/** The example instance padded with an XML comment of random text to `bytes`: still valid, so its package is
 * stored, and incompressible, so the package is as large as the instance. */
function paddedInstance(bytes: number): string {
  const xml = readFileSync(INSTANCE, 'utf8');
  const at = xml.indexOf('<dm-label>');
  const padding = randomBytes(Math.ceil(Math.max(0, bytes - xml.length - 10) * 0.75)).toString('base64');
  return `${xml.slice(0, at)}<!-- ${padding} -->${xml.slice(at)}`;
}

/** The nice value of this process's main thread while it attacks (see the scenario's comment). */
const ATTACKER_NICE = 10;

const MY_JOBS = 'subscription { myJobs { ctId seq status step } }';
const WALLET_QUERY = '{ wallet { balanceCredits heldCredits } apiKeys { name status } }';
const SPARQL_COUNT = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
const SPARQL_SLOW = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }';

/**
 * Seeds the database through `services` (users, keys, credits, an app graph, a legacy shared model), starts the
 * service in its own process on that database, measures the victim on the quiet service for `baselineSeconds`,
 * then runs every attack at once and measures it again; returns the figures (asserting nothing).
 */
export async function runTenantFlood(
  setup: { services: Services; databaseUrl: string },
  scale: FloodScale,
  baselineSeconds = 5,
): Promise<FloodFigures> {
  const { services } = setup;
  const settings = services.settings;
  const user = async (name: string, credits: number, scopes: Scope[], keys = 1) => {
    const made = await services.users.create({ email: `${name}-${Math.random().toString(36).slice(2, 8)}@example.org`, password: 'flood-password' });
    if (credits) await services.ledger.credit(made.id, credits, 'flood credits');
    const tokens: string[] = [];
    for (let i = 0; i < keys; i++)
      tokens.push((await services.keys.create(made.id, { name: `${name}-${i}`, scopes, spendLimitCredits: null, expiresInDays: null })).key);
    return { id: made.id, tokens };
  };

  await services.packages.importPackage(path.join(FIXTURES, 'sdc4/packages/StatePopulation'));
  const victim = await user('victim', 100_000, ['read', 'build', 'spend']);
  const socketFlooder = await user('socket-flooder', 0, ['read']);
  const subscriber = await user('subscriber', 0, ['read'], scale.subscriptionKeys);
  const estimator = await user('estimator', 100_000, ['read', 'build', 'spend']);
  const packager = await user('packager', 100_000, ['read', 'spend']);
  const appKeys: string[] = [];
  for (let i = 0; i < scale.cpuKeys; i++)
    appKeys.push((await services.app.keys.create({ organization: `Flood Org ${i}`, contactEmail: `flood${i}@example.org` })).plaintext);
  const sparqlKey = (await services.app.keys.create({ organization: 'Sparql Org', contactEmail: 'sparql@example.org' })).plaintext;

  const ntriples = Array.from({ length: 10_000 }, (_, i) => `<urn:n:${i % 100}> <urn:p:${i % 7}> <urn:n:${(i * 31) % 100}> .`).join('\n');
  await saveGraph(services.db, { graphUri: 'urn:flood:graph', source: 'instance', ntriples, tripleCount: 10_000 });

  // The 100³ model as stored before repeats were refused: 3 clusters, 1 component; width³ leaves expanded.
  const sharedModel = await services.db.transaction(async (m) => {
    const leaf = await services.catalog.createComponent(m, { label: 'Leaf', dataType: 'XdString', status: 'published', ownerId: null });
    let cluster = await services.catalog.createCluster(m, {
      label: 'L0',
      status: 'published',
      ownerId: null,
      children: Array.from({ length: scale.treeWidth }, () => ({ componentId: leaf.id })),
    });
    for (let level = 1; level <= 2; level++)
      cluster = await services.catalog.createCluster(m, {
        label: `L${level}`,
        status: 'published',
        ownerId: null,
        children: Array.from({ length: scale.treeWidth }, () => ({ clusterId: cluster.id })),
      });
    return (await services.catalog.createDataModel(m, { title: 'Shared', rootClusterId: cluster.id, published: true, ownerId: null })).ctId;
  });

  const service = await startServiceProcess(
    {
      ROLE: 'all',
      DATABASE_URL: setup.databaseUrl,
      STORAGE_DIR: settings.storageDir,
      SCHEMA_CATALOG_DIR: settings.schemaCatalogDir,
      SPARQL_TIMEOUT_MS: '1500',
      // Every caller of the scenario comes from 127.0.0.1: the per-address socket cap would count them as one.
      WS_MAX_SOCKETS_PER_ADDRESS: '1000',
      LOG_LEVEL: 'warn',
      ...scale.env,
    },
    process.env.FLOOD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FLOOD_CPU_PROF}`] : [],
  );
  const url = service.url;
  const sockets: Socket[] = [];
  let restorePriority: (() => void) | null = null;
  try {
    const sparql = async (query: string) => {
      const res = await fetch(`${url}/api/v1/sparql?query=${encodeURIComponent(query)}`, {
        headers: { 'x-api-key': sparqlKey, accept: 'application/sparql-results+json' },
      });
      const text = await res.text();
      return { status: res.status, count: res.status === 200 ? Number(JSON.parse(text).results.bindings[0].n.value) : null };
    };
    const stored = (await sparql(SPARQL_COUNT)).count;
    // Interface B validates against the schemas uploaded to it.
    const schema = new FormData();
    schema.append('files', new Blob([readFileSync(INSTANCE.replace(/\.xml$/, '.xsd'))]), `dm-${CT_ID}.xsd`);
    for (const key of appKeys) {
      const uploaded = await fetch(`${url}/api/v1/upload/schema/`, { method: 'POST', body: schema, headers: { 'x-api-key': key } });
      if (uploaded.status !== 201) throw new Error(`schema upload answered ${uploaded.status}: ${await uploaded.text()}`);
    }
    const instance = readFileSync(INSTANCE, 'utf8');

    const victimSocket = new Socket(url, victim.tokens[0]);
    sockets.push(victimSocket);
    if (!(await victimSocket.acked)) throw new Error('the victim socket was refused');
    victimSocket.subscribe('mine', MY_JOBS);

    const probe = await startVictim([
      { name: 'health', url: `${url}/healthz`, method: 'GET', headers: {} },
      { name: 'wallet', url: `${url}/api/v1/wallet/`, method: 'GET', headers: { authorization: `Token ${victim.tokens[0]}` } },
      {
        name: 'vaas',
        url: `${url}/api/v1/vaas/validate/?mode=strict&package=false`,
        method: 'POST',
        headers: { authorization: `Token ${victim.tokens[0]}`, 'content-type': 'application/xml' },
        body: instance,
        expect: '"valid":true',
      },
    ]);
    restorePriority = lowerThreadsPriority(otherThreads(probe.tid === null ? [] : [probe.tid]).concat(process.pid), ATTACKER_NICE);
    await eventLoopDelay(url);
    probe.phase('baseline');
    await new Promise((resolve) => setTimeout(resolve, baselineSeconds * 1000));
    const quietLoop = await eventLoopDelay(url);

    // Built before the attack phase: building them is this process's work, not the service's.
    const cpuBody = JSON.stringify({ xml_content: largeInstance(scale.cpuInstanceBytes) });
    const packageBody = paddedInstance(scale.packageBytes);
    const leaves = Array.from({ length: scale.estimateLeaves }, (_, i) => ({ label: `Field ${i}`, dataType: i % 2 ? 'XdCount' : 'XdString' }));
    const estimateInput = { title: 'Flood', data: { label: 'Flood Data', components: leaves } };
    const aliasQuery = `query ($input: AssemblyInput!) { ${Array.from({ length: scale.estimateAliases }, (_, i) => `e${i}: estimate(input: $input) { totalCredits }`).join(' ')} }`;
    const aliasBody = JSON.stringify({ query: aliasQuery, variables: { input: estimateInput } });
    const restEstimateBody = JSON.stringify({
      title: 'Flood',
      data: { label: 'Flood Data', components: leaves.map((l) => ({ label: l.label, data_type: l.dataType })) },
    });

    probe.phase('attack');
    const started = performance.now();
    const attacks: FloodFigures['attacks'] = {};
    const record = (name: string) => (attacks[name] = { statuses: {}, wrong: 0, note: '' });
    const socketsAcked: Array<Promise<boolean[]>> = [];

    const draftModel = async () => {
      const a = record('100³ draft model');
      // The write: a draft cluster listing one child `treeWidth` times is refused with a 400 naming it.
      const headers = { authorization: `Token ${estimator.tokens[0]}`, 'content-type': 'application/json' };
      const post = async (route: string, body: unknown) => {
        const res = await fetch(url + route, { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as Record<string, any> };
      };
      const project = ((await (await fetch(`${url}/api/v1/auth/modeler/`, { headers })).json()) as { project_ct_id: string }).project_ct_id;
      const leaf = await post('/api/v1/dmgen/xd-strings/', { project, label: 'Leaf', public: false });
      tally(a.statuses, leaf.status);
      const inner = await post('/api/v1/dmgen/clusters/', { project, label: 'Inner', xdstring: [leaf.body.ct_id] });
      tally(a.statuses, inner.status);
      const wide = await post('/api/v1/dmgen/clusters/', { project, label: 'Wide', clusters: Array(scale.treeWidth).fill(inner.body.ct_id) });
      tally(a.statuses, wide.status);
      if (wide.status === 201) a.wrong++;
      // The read, anonymously, over REST and GraphQL: answered with the stored rows, each shared cluster once.
      let largest = 0;
      for (let i = 0; i < 4; i++) {
        const rest = await fetch(`${url}/api/v1/catalog/dm/${sharedModel}/`);
        const text = await rest.text();
        tally(a.statuses, rest.status);
        largest = Math.max(largest, text.length);
        const gql = await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'query ($ctId: String!) { catalogModel(ctId: $ctId) { tree } }', variables: { ctId: sharedModel } }),
        });
        const gqlText = await gql.text();
        tally(a.statuses, gql.status);
        largest = Math.max(largest, gqlText.length);
      }
      // A tree view the size of its expansion (width³ nodes) would be megabytes; by reference it is kilobytes.
      if (largest > 200_000) a.wrong++;
      a.note = `write of ${scale.treeWidth} repeats answered ${wide.status}; largest anonymous read ${largest} bytes`;
    };

    const socketFlood = async () => {
      const a = record('socket operations');
      const open = Array.from({ length: scale.wsSockets }, () => new Socket(url, socketFlooder.tokens[0]));
      sockets.push(...open);
      const acking = Promise.all(open.map((s) => s.acked));
      socketsAcked.push(acking);
      const acked = await acking;
      for (const s of open) for (let i = 0; i < scale.wsOperationsPerSocket; i++) s.subscribe(`op-${i}`, WALLET_QUERY);
      const total = scale.wsSockets * scale.wsOperationsPerSocket;
      const answered = () => open.reduce((n, s) => n + s.messages.filter((m) => m.type === 'next' || m.type === 'error').length, 0);
      const everyClosed = Promise.all(open.map((s) => s.closed));
      for (let i = 0; i < 300 && answered() < total; i++) {
        const closed = await Promise.race([everyClosed.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 50))]);
        if (closed) break;
      }
      const codes = await Promise.all(open.map((s) => Promise.race([s.closed, new Promise<number>((r) => setTimeout(() => r(0), 10))])));
      for (const code of codes) tally(a.statuses, code ? `close ${code}` : 'open');
      a.note = `${acked.filter(Boolean).length} sockets acked, ${answered()} of ${total} operations answered`;
    };

    const cpuFlood = async () => {
      const a = record('2 MB instances');
      await Promise.all(
        appKeys.map((key) =>
          lanes(scale.cpuWidth, scale.cpuRounds, async () => {
            const res = await fetch(`${url}/api/v1/validate/xml/`, {
              method: 'POST',
              headers: { 'x-api-key': key, 'content-type': 'application/json' },
              body: cpuBody,
            });
            await res.arrayBuffer();
            tally(a.statuses, res.status);
          }),
        ),
      );
      a.note = `${scale.cpuKeys} keys × ${scale.cpuWidth} wide × ${scale.cpuRounds} of ${(cpuBody.length / MB).toFixed(1)} MB`;
    };

    const subscriptionFlood = async () => {
      const a = record('myJobs subscriptions');
      const open: Socket[] = [];
      for (const token of subscriber.tokens) for (let i = 0; i < scale.subscriptionSocketsPerKey; i++) open.push(new Socket(url, token));
      sockets.push(...open);
      const acking = Promise.all(open.map((s) => s.acked));
      socketsAcked.push(acking);
      const acked = await acking;
      for (const s of open) for (let i = 0; i < scale.subscriptionsPerSocket; i++) s.subscribe(`jobs-${i}`, MY_JOBS);
      // A busy service takes a while to reach the subscriptions past the cap: 100 ms a socket, at least 3 s.
      const waitMs = Math.max(3000, open.length * 100);
      const codes = await Promise.all(open.map((s) => Promise.race([s.closed, new Promise<number>((r) => setTimeout(() => r(0), waitMs))])));
      for (const code of codes) tally(a.statuses, code ? `close ${code}` : 'open');
      a.note = `${acked.filter(Boolean).length} of ${open.length} sockets acked, ${open.length * scale.subscriptionsPerSocket} subscriptions asked`;
    };

    const sparqlAttack = async () => {
      const a = record('SPARQL past its budget');
      const slow = sparql(SPARQL_SLOW);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const queued = await Promise.all(Array.from({ length: scale.sparqlQueued }, () => sparql(SPARQL_COUNT)));
      tally(a.statuses, (await slow).status);
      for (const q of queued) {
        tally(a.statuses, q.status);
        if (q.status === 200 && q.count !== stored) a.wrong++;
      }
      a.note = `queued answers ${queued.map((q) => (q.status === 200 ? `200:${q.count}` : q.status)).join(', ')} (stored ${stored})`;
    };

    const estimateAttack = async () => {
      const a = record('estimate aliases');
      const headers = { authorization: `Token ${estimator.tokens[0]}`, 'content-type': 'application/json' };
      const aliased = Array.from({ length: scale.estimateRequests }, async () => {
        const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body: aliasBody });
        const text = await res.text();
        tally(a.statuses, res.status);
        if (res.status === 200 && !text.includes('QUERY_TOO_COMPLEX')) a.wrong++;
      });
      const single = Array.from({ length: scale.estimateRequests }, async () => {
        const res = await fetch(`${url}/api/v1/dmgen/assemble/estimate/`, { method: 'POST', headers, body: restEstimateBody });
        await res.arrayBuffer();
        tally(a.statuses, `estimate ${res.status}`);
      });
      await Promise.all([...aliased, ...single]);
      a.note = `${scale.estimateRequests} × ${scale.estimateAliases} aliases and ${scale.estimateRequests} single estimates of ${scale.estimateLeaves} leaves`;
    };

    const packageAttack = async () => {
      const a = record('VaaS packages');
      let next = 0;
      await lanes(scale.packageWidth, 1, async () => {
        while (next++ < scale.packages) {
          const res = await fetch(`${url}/api/v1/vaas/validate/?mode=strict&package=true`, {
            method: 'POST',
            headers: { authorization: `Token ${packager.tokens[0]}`, 'content-type': 'application/xml' },
            body: packageBody,
          });
          await res.arrayBuffer();
          tally(a.statuses, res.status);
        }
      });
      a.note = `${scale.packages} packages of ${(packageBody.length / MB).toFixed(1)} MB`;
    };

    // The victim's own job, started while the attacks run: its subscription must see every step.
    const victimJob = async () => {
      const res = await fetch(`${url}/api/v1/dmgen/assemble/`, {
        method: 'POST',
        headers: { authorization: `Token ${victim.tokens[0]}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Victim',
          generate: false,
          data: { label: 'Victim Data', components: [{ label: 'Count', data_type: 'XdCount' }] },
        }),
      });
      const body = (await res.json()) as { job_ct_id?: string; ct_id?: string };
      const ctId = body.job_ct_id ?? body.ct_id;
      if (!ctId) throw new Error(`the victim's assembly answered ${res.status}: ${JSON.stringify(body)}`);
      const deadline = Date.now() + 120_000;
      let status = 'queued';
      while (Date.now() < deadline) {
        const [row] = await services.db.query('SELECT status FROM jobs WHERE ct_id = $1', [ctId]);
        status = row.status;
        if (status === 'completed' || status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const events: Array<{ seq: number }> = await services.db.query(
        'SELECT e.seq FROM job_events e JOIN jobs j ON j.id = e.job_id WHERE j.ct_id = $1 ORDER BY e.seq',
        [ctId],
      );
      const expected = events.map((e) => e.seq);
      const seen = () =>
        victimSocket.messages
          .filter((m) => m.type === 'next' && m.id === 'mine' && m.payload?.data?.myJobs?.ctId === ctId)
          .map((m) => m.payload.data.myJobs.seq as number);
      for (let i = 0; i < 100 && seen().length < expected.length; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      return { seen: seen(), expected, status };
    };

    // FLOOD_ONLY=name,name runs only those attacks (to find which one a slow victim owes its p99 to).
    const all = { draftModel, socketFlood, cpuFlood, subscriptionFlood, sparqlAttack, estimateAttack, packageAttack };
    const only = process.env.FLOOD_ONLY?.split(',');
    const chosen = Object.entries(all).filter(([name]) => !only || only.includes(name));
    // The socket attacks connect first: at the issue's sizes, this one process sending hundreds of megabytes at once
    // would otherwise miss its own sockets' connection_init deadline (4408) and the sockets would attack nothing.
    const connecting = chosen.filter(([name]) => name === 'socketFlood' || name === 'subscriptionFlood').map(([, attack]) => attack());
    await Promise.race([Promise.all(socketsAcked), new Promise((resolve) => setTimeout(resolve, 5000))]);
    const rest = chosen.filter(([name]) => name !== 'socketFlood' && name !== 'subscriptionFlood').map(([, attack]) => attack());
    const [job] = await Promise.all([victimJob(), ...connecting, ...rest]);
    const attackSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
    const samples = await probe.stop();
    if (process.env.FLOOD_SAMPLES)
      writeFileSync(process.env.FLOOD_SAMPLES, JSON.stringify({ attackStarted: performance.timeOrigin + started, samples }));
    const attackLoop = await eventLoopDelay(url);
    const of = (phase: string, name: VictimName) => statsOf(samples.filter((s) => s.phase === phase && s.name === name));
    const names: VictimName[] = ['health', 'wallet', 'vaas'];
    return {
      baseline: Object.fromEntries(names.map((n) => [n, of('baseline', n)])) as Record<VictimName, VictimStats>,
      attack: Object.fromEntries(names.map((n) => [n, of('attack', n)])) as Record<VictimName, VictimStats>,
      attacks,
      victimJob: job,
      attackSeconds,
      eventLoop: { baseline: quietLoop, attack: attackLoop },
    };
  } finally {
    restorePriority?.();
    for (const s of sockets) s.close();
    await service.stop();
  }
}

/** The figures as lines a person reads. */
export function floodReport(figures: FloodFigures): string {
  const loop = figures.eventLoop;
  const lines: string[] = [
    `attacks ran ${figures.attackSeconds} s at once; service event-loop delay quiet p99 ${loop.baseline.p99} max ${loop.baseline.max} ms, under attack p99 ${loop.attack.p99} max ${loop.attack.max} ms`,
  ];
  for (const name of ['health', 'wallet', 'vaas'] as const) {
    const [b, a] = [figures.baseline[name], figures.attack[name]];
    lines.push(
      `victim ${name}: quiet p50 ${b.p50} p99 ${b.p99} ms (${b.count} calls); under attack p50 ${a.p50} p99 ${a.p99} ms (${a.count} calls, statuses ${JSON.stringify(a.statuses)}, wrong ${a.wrong})`,
    );
  }
  lines.push(`victim job: ${figures.victimJob.status}, seqs seen ${figures.victimJob.seen.join(',')} of ${figures.victimJob.expected.join(',')}`);
  for (const [name, a] of Object.entries(figures.attacks)) lines.push(`attack ${name}: ${JSON.stringify(a.statuses)} wrong ${a.wrong}; ${a.note}`);
  return lines.join('\n');
}

/** The issue's goal on an idle machine: the victim's /healthz and wallet read under every attack at p99 < 250 ms. */
const IDLE_GOAL_MS = 250;

/** bench:tenant-flood — the scenario at the issue's sizes (`--quick`: CI_SCALE), the service in its own process;
 * reports the victim's absolute p50/p99 before and under the attacks, each attack's answers, and the goal. */
export async function benchTenantFlood(options: { quick?: boolean } = {}): Promise<Record<string, unknown>> {
  const service = await startBenchService({ schemaCatalogDir: path.join(FIXTURES, 'sdc4/reference') }, { workers: false });
  try {
    const figures = await runTenantFlood({ services: service.services, databaseUrl: service.databaseUrl }, options.quick ? CI_SCALE : FULL_SCALE);
    console.log(floodReport(figures));
    const goals = (['health', 'wallet'] as const).map((name) => ({
      figure: `victim ${name} p99 under every attack`,
      valueMs: figures.attack[name].p99,
      goalMs: IDLE_GOAL_MS,
      met: figures.attack[name].p99 < IDLE_GOAL_MS,
    }));
    console.log(goals);
    return { scale: options.quick ? 'ci' : 'full', ...figures, goals, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))) };
  } finally {
    await service.close();
  }
}

if (require.main === module) {
  benchTenantFlood({ quick: process.argv.includes('--quick') })
    .then((result) => recordResults('tenantFlood', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
