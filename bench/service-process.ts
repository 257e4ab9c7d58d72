import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { freePort } from '../src/db/embedded-postgres';

// dist/bench when built, bench/ when a test imports it through ts-jest.
const ROOT = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === 'dist' ? '../..' : '..');
/** BENCH_SERVICE_ROOT: another checkout whose build (dist/src/main.js) to measure instead, e.g. main's, to
 * compare before and after with the same harness. */
const SERVICE_ROOT = process.env.BENCH_SERVICE_ROOT ? path.resolve(process.env.BENCH_SERVICE_ROOT) : ROOT;

/** The service as `npm start` runs it (dist/src/main.js, ROLE=all), in a process of its own on an existing
 * database, so its RSS and CPU profile are its own and the load generator does not share its event loop. */
export interface ServiceProcess {
  url: string;
  pid: number;
  /** SIGTERM, then waits for the exit (a clean stop: flushes, CPU profile written). */
  stop: () => Promise<void>;
}

export async function startServiceProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, path.join(SERVICE_ROOT, 'dist/src/main.js')], {
    cwd: SERVICE_ROOT,
    // Request logs go where an operator's would (a pipe or file); here the null device, still written.
    stdio: ['ignore', 'ignore', 'pipe'],
    // As `npm start` and the image run it (README: MALLOC_ARENA_MAX), unless this environment says otherwise.
    env: {
      MALLOC_ARENA_MAX: '2',
      ...process.env,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready in 60 s: ${stderr}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 20000);
    child.on('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Bare Node `http` answering a constant JSON (bench/bare-server.ts) in a process of its own. */
export async function startBareServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = fork(path.join(__dirname, 'bare-server.js'), [], { stdio: 'ignore' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => stopChild(child) };
}

/** Resident memory of a process now (VmRSS), in MB. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** A load run's figures; the peak RSS is null when no process was sampled. */
export type Measured = {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  peakRssMb: number | null;
};

/** The figures `measure` reads from autocannon's result. */
type LoadFigures = { total: number; duration: number; p50: number; p99: number; errors: number; non2xx: number };

/** autocannon in a thread of its own that ends with the load. Its histograms live in a WebAssembly memory that is
 * never given back (hdr-histogram-js), and autocannon does not free the ones it aggregates: run in the calling
 * thread, each load left some 4 MB there, so a bench's sampled RSS crept by the load generator's, not the
 * service's (bench:validate, issue 28). A thread's memory goes with it. */
function autocannonInThread(options: Record<string, unknown>): Promise<LoadFigures> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const autocannon = require(${JSON.stringify(require.resolve('autocannon'))});
    // Outside the main thread autocannon answers as one of its own workers would: the histograms still encoded.
    autocannon(workerData).then((raw) => {
      const r = autocannon.aggregateResult([raw], workerData);
      parentPort.postMessage({ total: r.requests.total, duration: raw.duration, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx });
    });`;
  return new Promise((resolve, reject) => {
    const thread = new Worker(code, { eval: true, workerData: options });
    thread.once('message', (figures: LoadFigures) => {
      resolve(figures);
      void thread.terminate();
    });
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
  });
}

/** autocannon (in a worker thread of this process) against one endpoint, the target process's RSS sampled. */
export async function measure(
  name: string,
  options: {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections: number;
    seconds: number;
    pid?: number;
  },
): Promise<Measured> {
  let peak = options.pid ? rssMb(options.pid) : 0;
  const sampler = options.pid ? setInterval(() => (peak = Math.max(peak, rssMb(options.pid!))), 100) : null;
  const result = await autocannonInThread({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.seconds,
  }).finally(() => sampler && clearInterval(sampler));
  return {
    name,
    // Over the whole run, not the mean of per-second samples (a one-second quick run has one sample).
    requestsPerSecond: Math.round(result.total / Math.max(result.duration, 0.001)),
    p50Ms: result.p50,
    p99Ms: result.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    peakRssMb: options.pid ? peak : null,
  };
}
