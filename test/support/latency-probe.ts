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

/** Calls `url` every 10 ms from a worker thread until stopped; `stop` returns the p99 latency and the statuses seen. */
export function probe(url: string, headers: Record<string, string> = {}): { stop: () => Promise<ProbeStats> } {
  const worker = new Worker(LOOP, { eval: true, workerData: { url, headers } });
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
