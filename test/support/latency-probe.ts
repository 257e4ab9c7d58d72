import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface ProbeStats {
  p99: number;
  count: number;
  statuses: number[];
}

/** The probe loop, run on its own thread: a test that builds megabytes of hostile input or sends thousands of
 * messages stalls its own event loop, and a probe on that loop would count the stall as the service's latency. */
const LOOP = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers } = workerData;
const latencies = [];
const statuses = new Set();
let running = true;
parentPort.once('message', () => (running = false));
(async () => {
  // One call first, untimed: a new thread's first fetch loads and compiles the HTTP client (100-500 ms on a busy
  // machine), which is the probe's own start-up, not the service's latency.
  await (await fetch(url, { headers })).arrayBuffer();
  parentPort.postMessage('ready');
  while (running) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    statuses.add(res.status);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  latencies.sort((a, b) => a - b);
  parentPort.postMessage({ p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0, count: latencies.length, statuses: [...statuses] });
})();
`;

/** Calls `url` every 10 ms from a worker thread, once its first call has warmed it up, until stopped; `stop`
 * returns the p99 latency and the statuses seen. */
export async function probe(url: string, headers: Record<string, string> = {}): Promise<{ stop: () => Promise<ProbeStats> }> {
  const worker = new Worker(LOOP, { eval: true, workerData: { url, headers } });
  const [ready] = (await once(worker, 'message')) as [string];
  if (ready !== 'ready') throw new Error(`probe of ${url} did not start: ${ready}`);
  const stats = once(worker, 'message') as Promise<[ProbeStats]>;
  return {
    stop: async () => {
      worker.postMessage('stop');
      const [result] = await stats;
      await worker.terminate();
      return result;
    },
  };
}
