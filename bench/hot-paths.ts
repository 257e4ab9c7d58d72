import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseCreateKey } from '../src/parsers/keys.parser';
import { recordResults } from './results';
import { measure, startBareServer, startServiceProcess, type Measured, type ServiceProcess } from './service-process';
import { printTable, startBenchService } from './support';

const ROOT = path.resolve(__dirname, '../..');
export const FIXTURES = path.resolve(ROOT, '../shared/fixtures');
export const CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
const PACKAGE = path.join(FIXTURES, 'sdc4/packages/StatePopulation');
const CONNECTIONS = 16;

/** Issue 19's goals, each a figure of one run against its bound. */
export const GOALS = {
  healthzOverBare: 0.35,
  studioOverHealthz: 0.7,
  whoamiOverHealthz: 0.8,
  validateOverWhoami: 0.6,
  validateRequestsPerSecond: 1500,
  p99Ms: 30,
  rssMb: 300,
} as const;

/** A seeded service in its own process: a studio key, an Interface B key and StatePopulation's schema uploaded. */
export interface HotPathTarget {
  service: ServiceProcess;
  studioKey: string;
  appKey: string;
  validateBody: string;
  close: () => Promise<void>;
}

/** Seeds a fresh database through the services in this process, then starts `node dist/src/main.js` on it. */
export async function startHotPathTarget(nodeArgs: string[] = []): Promise<HotPathTarget> {
  const seeder = await startBenchService({}, { workers: false });
  const storage = await mkdtemp(path.join(os.tmpdir(), 'sdc-bench-storage-'));
  let service: ServiceProcess | null = null;
  try {
    const { services } = seeder;
    const user = await services.users.create({ email: 'bench@example.org', password: 'bench-password' });
    const { key: studioKey } = await services.keys.create(user.id, parseCreateKey({ name: 'bench' }));
    const { plaintext: appKey } = await services.app.keys.create({ organization: 'Bench', contactEmail: 'bench@example.org' });
    service = await startServiceProcess(
      {
        DATABASE_URL: seeder.databaseUrl,
        STORAGE_DIR: storage,
        SCHEMA_CATALOG_DIR: path.join(FIXTURES, 'sdc4/reference'),
        // The storage caps (issue 30) would answer this one organisation's tens of thousands of validations with
        // 507 partway through, and the profile would measure refusals: out of the way, as in bench/validate.ts.
        APP_MAX_TRIPLES: String(Number.MAX_SAFE_INTEGER),
        APP_MAX_TRIPLES_PER_ORGANIZATION: String(Number.MAX_SAFE_INTEGER),
        APP_STORAGE_QUOTA_BYTES: String(Number.MAX_SAFE_INTEGER),
      },
      nodeArgs,
    );
    const form = new FormData();
    form.append('files', new Blob([await readFile(path.join(PACKAGE, `dm-${CT_ID}.xsd`))]), `dm-${CT_ID}.xsd`);
    const uploaded = await fetch(`${service.url}/api/v1/upload/schema/`, { method: 'POST', body: form, headers: { 'x-api-key': appKey } });
    if (uploaded.status !== 201) throw new Error(`schema upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const validateBody = JSON.stringify({ xml_content: await readFile(path.join(PACKAGE, `dm-${CT_ID}.xml`), 'utf8') });
    const first = await fetch(`${service.url}/api/v1/validate/xml/`, {
      method: 'POST',
      body: validateBody,
      headers: { 'x-api-key': appKey, 'content-type': 'application/json' },
    });
    if (first.status !== 201) throw new Error(`validation failed: ${first.status} ${await first.text()}`);
    const running = service;
    return {
      service: running,
      studioKey,
      appKey,
      validateBody,
      close: async () => {
        await running.stop();
        await seeder.close();
        await rm(storage, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await service?.stop();
    await seeder.close();
    await rm(storage, { recursive: true, force: true });
    throw error;
  }
}

/** The validate/xml load of the bench, shared with the CPU profile (bench/profile.ts). */
export function validateLoad(target: HotPathTarget, seconds: number) {
  return {
    url: `${target.service.url}/api/v1/validate/xml/`,
    method: 'POST' as const,
    headers: { 'x-api-key': target.appKey, 'content-type': 'application/json' },
    body: target.validateBody,
    connections: CONNECTIONS,
    seconds,
    pid: target.service.pid,
  };
}

const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One path's slices as one figure: the median rate, p50 and p99 of the slices, the peak RSS of all, every error. */
function median(slices: Measured[]): Measured {
  const rss = slices.map((s) => s.peakRssMb).filter((v): v is number => v !== null);
  return {
    name: slices[0].name,
    requestsPerSecond: middle(slices.map((s) => s.requestsPerSecond)),
    p50Ms: middle(slices.map((s) => s.p50Ms)),
    p99Ms: middle(slices.map((s) => s.p99Ms)),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    non2xx: slices.reduce((sum, s) => sum + s.non2xx, 0),
    peakRssMb: rss.length ? Math.max(...rss) : null,
  };
}

const atLeast = (figure: string, value: number, goal: number): Goal => ({ figure, value, goal: `≥ ${goal}`, met: value >= goal });
const below = (figure: string, value: number, goal: number): Goal => ({ figure, value, goal: `< ${goal}`, met: value < goal });

const ratio = (a: Measured, b: Measured) => Number((a.requestsPerSecond / Math.max(b.requestsPerSecond, 1)).toFixed(2));

export type Goal = { figure: string; value: number; goal: string; met: boolean };

/** bench:hot-paths — issue 19 in one run: bare Node `http`, /healthz, Interface B whoami, a key-authenticated
 * studio GET and validate/xml, each at concurrency 16 for `seconds` one-second slices taken in turn (the median
 * slice is the figure), with their ratios, p99 and the service's RSS beside each goal. */
export async function benchHotPaths(seconds = 5): Promise<Record<string, unknown>> {
  const bare = await startBareServer();
  const target = await startHotPathTarget();
  try {
    const pid = target.service.pid;
    const base = target.service.url;
    const loads = {
      bare: { url: bare.url, connections: CONNECTIONS, seconds },
      healthz: { url: `${base}/healthz`, connections: CONNECTIONS, seconds, pid },
      whoami: { url: `${base}/api/v1/whoami/`, headers: { 'x-api-key': target.appKey }, connections: CONNECTIONS, seconds, pid },
      studio: {
        url: `${base}/api/v1/auth/api-tokens/`,
        headers: { authorization: `Token ${target.studioKey}` },
        connections: CONNECTIONS,
        seconds,
        pid,
      },
      validate: validateLoad(target, seconds),
    };
    // Warm-up: every path once under load, so the JIT and the pools are as warm for the first figure as for the last.
    // validate/xml for as long as a figure is measured: its threads' JIT and libxml2's WebAssembly tiers take about
    // five seconds to settle (measured: a first 5 s at 1,000-1,070 req/s, the next at 1,470-1,510).
    if (seconds > 1)
      for (const [name, options] of Object.entries(loads)) await measure('warm-up', { ...options, seconds: name === 'validate' ? seconds : 1 });
    // One-second slices taken in turn (bare, healthz, …, validate, bare, healthz, …): a burst of load from another
    // process on this shared machine falls on every path alike instead of on one whole figure.
    const names = {
      bare: 'bare Node http, constant JSON',
      healthz: 'GET /healthz',
      whoami: 'Interface B GET /api/v1/whoami/ (key, no-op)',
      studio: 'studio GET /api/v1/auth/api-tokens/ (key)',
      validate: 'POST /api/v1/validate/xml/ (StatePopulation, JSON)',
    };
    const slices: Record<keyof typeof loads, Measured[]> = { bare: [], healthz: [], whoami: [], studio: [], validate: [] };
    for (let round = 0; round < seconds; round++) {
      for (const key of Object.keys(loads) as Array<keyof typeof loads>) slices[key].push(await measure(names[key], { ...loads[key], seconds: 1 }));
    }
    const measured = {
      bare: median(slices.bare),
      healthz: median(slices.healthz),
      whoami: median(slices.whoami),
      studio: median(slices.studio),
      validate: median(slices.validate),
    };
    const service = Object.values(measured).filter((m) => m.peakRssMb !== null);
    const peakRssMb = Math.max(...service.map((m) => m.peakRssMb!));
    const ratios = {
      healthzOverBare: ratio(measured.healthz, measured.bare),
      studioOverHealthz: ratio(measured.studio, measured.healthz),
      whoamiOverHealthz: ratio(measured.whoami, measured.healthz),
      validateOverWhoami: ratio(measured.validate, measured.whoami),
    };
    const worstP99 = Math.max(...service.map((m) => m.p99Ms));
    const goals: Goal[] = [
      atLeast('/healthz / bare Node', ratios.healthzOverBare, GOALS.healthzOverBare),
      atLeast('studio key GET / healthz', ratios.studioOverHealthz, GOALS.studioOverHealthz),
      atLeast('Interface B no-op / healthz', ratios.whoamiOverHealthz, GOALS.whoamiOverHealthz),
      atLeast('validate/xml / Interface B no-op', ratios.validateOverWhoami, GOALS.validateOverWhoami),
      atLeast('validate/xml req/s (goal on an idle machine)', measured.validate.requestsPerSecond, GOALS.validateRequestsPerSecond),
      below('worst p99 ms of the service rows, c=16', worstP99, GOALS.p99Ms),
      below('service peak RSS MB under load', peakRssMb, GOALS.rssMb),
    ];
    printTable(Object.values(measured));
    printTable(goals);
    const failed = Object.values(measured).filter((m) => m.errors || m.non2xx);
    if (failed.length) throw new Error(`requests failed: ${failed.map((m) => `${m.name} errors ${m.errors} non-2xx ${m.non2xx}`).join('; ')}`);
    return { seconds, connections: CONNECTIONS, ...measured, ratios, peakRssMb, goals };
  } finally {
    await target.close();
    await bare.stop();
  }
}

if (require.main === module) {
  const quick = process.argv.includes('--quick');
  benchHotPaths(quick ? 1 : Number(process.env.BENCH_SECONDS) || 10)
    .then((result) => (quick ? undefined : recordResults('hotPaths', result)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
