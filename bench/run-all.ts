import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchReuseAssemble } from './assemble';
import { benchAuth } from './auth';
import { benchEstimate } from './estimate';
import { benchHotPaths } from './hot-paths';
import { benchJobs } from './jobs';
import { benchPackage } from './package';
import { benchRdfSync } from './rdf-sync';
import { recordedResult, recordResults } from './results';
import { resultsMarkdown, type FeatureOutcome } from './results-table';
import { benchValidate } from './validate';
import { benchVaas } from './vaas';
import { benchStorage } from './storage';
import { benchTenantFlood } from './tenant-flood';

/** Every per-feature benchmark, under the name it records in bench/results.json; `full` runs the lengths. */
const FEATURES: Record<string, (full: boolean) => Promise<Record<string, unknown>>> = {
  hotPaths: (full) => benchHotPaths(full ? 10 : 5),
  auth: (full) => benchAuth(full ? 10 : 5),
  estimate: (full) => benchEstimate({ quick: !full }),
  assemble: (full) => benchReuseAssemble({ quick: !full }),
  jobs: (full) => benchJobs({ quick: !full }),
  validate: (full) => benchValidate(full ? 20 : 5),
  rdfSync: (full) => benchRdfSync({ quick: !full }),
  package: () => benchPackage(),
  vaas: (full) => benchVaas(full ? 20 : 5),
  storage: (full) => benchStorage(full ? 20 : 5),
  // Always the sizes: the victim's p99 under them is the figure (`npm run bench:tenant-flood -- --quick`: CI's).
  tenantFlood: () => benchTenantFlood(),
};

/** `--quick`: issue 19's hot paths for one second each, to keep the scripts working (CI runs it once); it records
 * nothing, so a quick run never overwrites the figures of a real one. */
const QUICK: Record<string, () => Promise<Record<string, unknown>>> = {
  hotPaths: () => benchHotPaths(1),
};

const MARKDOWN = path.resolve(__dirname, '../../bench/results.md');

/** One feature in a child process of its own: its peak RSS is its own, not the sum of the features before it. */
function runInChild(name: string, full: boolean, quick = false): Promise<FeatureOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let outcome: Partial<FeatureOutcome> = {};
    const child = fork(__filename, ['--feature', name, ...(full ? ['--full'] : []), ...(quick ? ['--quick'] : [])], { stdio: 'inherit' });
    child.on('message', (message: Partial<FeatureOutcome>) => (outcome = message));
    child.on('exit', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      if (outcome.result) resolve({ name, seconds, result: outcome.result });
      else resolve({ name, seconds, error: outcome.error ?? `exited with ${signal ?? code}` });
    });
  });
}

/** The child's side: runs the feature, hands its result to the parent and exits (a stray handle cannot hold it). */
async function runFeature(name: string, full: boolean, quick: boolean): Promise<void> {
  let message: Partial<FeatureOutcome>;
  try {
    message = { result: quick ? await QUICK[name]() : await FEATURES[name](full) };
  } catch (error) {
    console.error(error);
    message = { error: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  }
  process.send!(message, () => process.exit(0));
}

/** `npm run bench -- --quick`: the hot paths for a second each, printed, nothing recorded; fails only when a
 * script or a request fails, never on speed. */
async function quickRun(): Promise<void> {
  for (const name of Object.keys(QUICK)) {
    console.log(`\n=== ${name} (smoke) ===`);
    const outcome = await runInChild(name, false, true);
    if (outcome.error) {
      console.error(`${name}: ${outcome.error}`);
      process.exitCode = 1;
    }
  }
}

/** `npm run bench [-- --full] [-- --only estimate,jobs] [-- --quick]`: each feature in turn, then
 * bench/results.json and bench/results.md. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const full = args.includes('--full');
  const quick = args.includes('--quick');
  const feature = args.includes('--feature') ? args[args.indexOf('--feature') + 1] : null;
  if (feature) return runFeature(feature, full, quick);
  if (quick) return quickRun();
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : Object.keys(FEATURES);
  const unknown = only.filter((name) => !FEATURES[name]);
  if (unknown.length) throw new Error(`unknown feature(s) ${unknown.join(', ')}; known: ${Object.keys(FEATURES).join(', ')}`);
  const started = performance.now();
  // The machine's load when the run began: on a shared machine, what the figures were taken beside.
  const loadAverage = Number(os.loadavg()[0].toFixed(1));
  const outcomes: FeatureOutcome[] = [];
  for (const name of only) {
    console.log(`\n=== ${name} (${full ? 'full' : 'short'}) ===`);
    const outcome = await runInChild(name, full);
    recordResults(name, outcome.result ?? { notMeasured: outcome.error });
    outcomes.push(outcome);
  }
  // With --only, the table keeps the other features' last recorded figures, named as such.
  for (const name of Object.keys(FEATURES).filter((n) => !only.includes(n))) {
    const earlier = recordedResult(name);
    if (earlier) outcomes.push({ name, seconds: 0, result: earlier.result, earlierRunAt: earlier.at });
  }
  const markdown = resultsMarkdown(outcomes, {
    at: new Date().toISOString(),
    mode: full ? 'full' : 'short',
    cpus: os.cpus().length,
    loadAverage,
    node: process.version,
    totalSeconds: (performance.now() - started) / 1000,
  });
  writeFileSync(MARKDOWN, markdown);
  console.log(`\n${markdown}`);
  if (outcomes.some((o) => o.error)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
