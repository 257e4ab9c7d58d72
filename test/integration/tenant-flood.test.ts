import { CI_SCALE, floodReport, runTenantFlood, type FloodFigures } from '../../bench/tenant-flood';
import { expectWithinBaseline } from '../support/baseline';
import { startAppUnderTest, type AppUnderTest } from './app-helpers';

/** Issue 30's "Done when": every attack of the issue at once against the service in its own process (`npm run
 * build` first), while a victim user calls /healthz, a keyed GET /wallet/ and a paid VaaS strict validation every
 * 50 ms and follows its own job through a myJobs subscription. The scenario (bench/tenant-flood.ts, also
 * `npm run bench:tenant-flood`) runs here at CI_SCALE: every attack kind, some smaller (the CPU flood 8 wide per
 * key once, 2,000 subscriptions from one user, estimates of 2,000 leaves, 12 VaaS packages of 8 MiB instances
 * against a 40 MB quota). Asserted is what a busy machine cannot fake: the victim's VaaS calls answer 200 (≥ 95 %), its
 * subscription sees every step of its job, no answer is a wrong 200, nothing answers 500, and the victim's p99
 * under attack stays within 10× of its own p99 measured a moment before (its jitter floor below). The absolute figures
 * (the one second, the idle goal of 250 ms) are `npm run bench:tenant-flood`'s to report. */

let app: AppUnderTest;
let figures: FloodFigures;
beforeAll(async () => {
  app = await startAppUnderTest({}, { workers: false });
  figures = await runTenantFlood({ services: app.services, databaseUrl: app.databaseUrl }, CI_SCALE);
  console.log(floodReport(figures));
}, 300_000);
afterAll(async () => {
  await app?.services.app.graphs.close();
  await app?.close();
});

it("answers the victim's paid validations while every attack runs", () => {
  const vaas = figures.attack.vaas;
  expect(vaas.count).toBeGreaterThan(0);
  expect((vaas.statuses['200'] ?? 0) / vaas.count).toBeGreaterThanOrEqual(0.95);
});

it('shows the victim every step of its own job', () => {
  expect(figures.victimJob.status).toBe('completed');
  expect(figures.victimJob.expected.length).toBeGreaterThan(1);
  expect(figures.victimJob.seen).toEqual(figures.victimJob.expected);
});

it('gives no wrong 200 and no 500, to the victim or to an attacker', () => {
  for (const stats of Object.values(figures.attack)) {
    expect(stats.wrong).toBe(0);
    expect(stats.statuses['500']).toBeUndefined();
    expect(stats.statuses['-1']).toBeUndefined();
  }
  for (const [name, attack] of Object.entries(figures.attacks)) {
    expect({ name, wrong: attack.wrong }).toEqual({ name, wrong: 0 });
    expect(Object.keys(attack.statuses).filter((s) => /\b500\b/.test(s))).toEqual([]);
  }
  // Each attack met its limit: the repeated children refused at write, the subscriptions past the user's cap
  // closed with 4429, the packages past the quota refused with 507, the aliased estimates with 400.
  expect(figures.attacks['100³ draft model'].statuses['400']).toBe(1);
  expect(figures.attacks['myJobs subscriptions'].statuses['close 4429']).toBeGreaterThan(0);
  expect(figures.attacks['VaaS packages'].statuses['507']).toBeGreaterThan(0);
  expect(figures.attacks['estimate aliases'].statuses['400']).toBe(CI_SCALE.estimateRequests);
});

/** The baseline counts as at least this much (test/support/baseline.ts): the low end of the quiet p99 on an idle
 * 2-core machine, so that a run whose quiet p99 of 101 calls happens to be its lowest does not fail on scheduler
 * jitter; at a typical quiet p99 the bound is the bare 10×. Measured at CI scale, sixteen runs of
 * bench:tenant-flood --quick after the event loop's turns (src/http/loop-turns.ts): quiet p99s of /healthz
 * 2.9-6.6 ms, the wallet read 5.2-11.8 ms, a paid validation 8.6-14.2 ms; under attack 16.9-27.5, 22.8-42.4 and
 * 41-77 ms; within 3.4-8.8, 2.6-6.5 and 3.4-7.4 times the bare quiet p99 in every run. What keeps the victim there:
 * no user's subscriptions take the database pool (src/jobs/job-feed.ts), large bodies are parsed in turns of the
 * event loop fair by caller, the CPU pool and V8's helper threads run below the event loop's priority, and the
 * attackers' client runs below the victim's (bench/tenant-flood.ts). Until then the floors were 15, 20 and 40 ms. */
const FLOOR_MS = { health: 4, wallet: 6, vaas: 10 };

it("keeps the victim's p99 within 10× of its own p99 a moment before", () => {
  for (const name of ['health', 'wallet', 'vaas'] as const) {
    const [before, during] = [figures.baseline[name], figures.attack[name]];
    expect(during.statuses['200']).toBeGreaterThan(0);
    expectWithinBaseline(during.p99, before.p99, FLOOR_MS[name]);
  }
});
