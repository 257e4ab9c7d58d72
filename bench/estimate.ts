import { DATA_TYPES } from '../src/domain/model-tree';
import { MAX_TREE_NODES } from '../src/parsers/assembly.parser';
import { benchCaller, postJson, publishedComponents, sequential, summarize, withPeakRss } from './measure';
import { recordResults } from './results';
import { load, printTable, startBenchService } from './support';

/** The largest flat tree the parser admits: the root cluster counts as a node, so "10,000 leaves" is 9,999. */
const LARGEST = MAX_TREE_NODES - 1;

/** A flat assembly body: every other leaf reuses a distinct published component, the rest are new. */
export function mixedTree(title: string, leaves: number, reusable: string[]): Record<string, unknown> {
  const components = Array.from({ length: leaves }, (_, i) =>
    i % 2 === 0
      ? { ct_id: reusable[(i / 2) % reusable.length] }
      : { label: `New field ${i}`, data_type: DATA_TYPES[i % DATA_TYPES.length], description: `What field ${i} records.` },
  );
  return { title, data: { label: 'Bench root', components } };
}

async function checkEstimate(url: string, key: string, body: string, leaves: number): Promise<void> {
  const estimate = await postJson<{ problems: unknown[]; reuse: unknown[]; mint: unknown[]; mode: string }>(url, key, body, [200]);
  const reused = Math.ceil(leaves / 2);
  if (estimate.problems.length || estimate.reuse.length !== reused || estimate.mint.length !== leaves - reused || estimate.mode !== 'mixed') {
    throw new Error(
      `unexpected estimate for ${leaves} leaves: ${JSON.stringify({ ...estimate, reuse: estimate.reuse.length, mint: estimate.mint.length }).slice(0, 500)}`,
    );
  }
}

/** bench:estimate — estimate latency (median, p99 of sequential requests, time to the last byte) for trees of 100,
 * 1,000 and 9,999 leaves, half reused and half new; cost must grow linearly (9,999 / 1,000 at most 12×). Then
 * requests/s of a 20-leaf estimate at concurrency 16. */
export async function benchEstimate(options: { quick?: boolean } = {}): Promise<Record<string, unknown>> {
  const quick = options.quick ?? false;
  const service = await startBenchService();
  try {
    const { key } = await benchCaller(service.services, 0);
    const reusable = await publishedComponents(service.services, Math.ceil(LARGEST / 2));
    const url = `${service.url}/api/v1/dmgen/assemble/estimate/`;
    const sizes: Array<{ leaves: number; runs: number }> = [
      { leaves: 100, runs: quick ? 40 : 100 },
      { leaves: 1000, runs: quick ? 20 : 50 },
      { leaves: LARGEST, runs: quick ? 8 : 20 },
    ];
    const rows = [];
    for (const { leaves, runs } of sizes) {
      const body = JSON.stringify(mixedTree(`Estimate bench ${leaves}`, leaves, reusable));
      await checkEstimate(url, key, body, leaves);
      const send = async () => {
        const response = await fetch(url, { method: 'POST', headers: { authorization: `Token ${key}`, 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`estimate answered ${response.status}`);
      };
      const { value: times, peakRssMb } = await withPeakRss(() => sequential(runs, 3, send));
      const summary = summarize(times);
      rows.push({ leaves, requestBytes: Buffer.byteLength(body), ...summary, usPerLeaf: Math.round((summary.medianMs * 1000) / leaves), peakRssMb });
    }
    const thousand = rows.find((r) => r.leaves === 1000)!;
    const largest = rows.find((r) => r.leaves === LARGEST)!;
    const growth = Number((largest.medianMs / thousand.medianMs).toFixed(2));
    printTable(rows);
    console.log(`median ${LARGEST} leaves / 1,000 leaves: ${growth}× (linear: ~10×, allowed: 12×) — ${growth <= 12 ? 'within' : 'OVER'} the bound`);

    const small = JSON.stringify(mixedTree('Estimate bench 20', 20, reusable));
    await checkEstimate(url, key, small, 20);
    const twenty = await load('POST estimate/ (20 leaves), c=16', {
      url,
      method: 'POST',
      headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
      body: small,
      connections: 16,
      durationSeconds: quick ? 5 : 15,
    });
    printTable([twenty]);
    return { sequential: rows, growth10kOver1k: growth, withinLinearBound: growth <= 12, largestTreeLeaves: LARGEST, twentyLeaves: twenty };
  } finally {
    await service.close();
  }
}

if (require.main === module) {
  benchEstimate({ quick: process.argv.includes('--quick') })
    .then((result) => recordResults('estimate', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
