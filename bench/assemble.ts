import { one } from '../src/db/sql';
import { benchCaller, postJson, publishedComponents } from './measure';
import { recordResults } from './results';
import { load, printTable, startBenchService } from './support';

const LEAVES = 20;

/** bench:assemble — the reuse path under load: POST assemble/ with a tree of 20 reused published components and
 * `generate: false` (hold, build and publish, capture, inside the request; the hold and the capture are group-committed
 * per wallet, the builds run in parallel) at concurrency 16, one key and wallet. */
export async function benchReuseAssemble(options: { quick?: boolean } = {}): Promise<Record<string, unknown>> {
  const service = await startBenchService();
  try {
    const { userId, key } = await benchCaller(service.services, 100_000_000);
    const reusable = await publishedComponents(service.services, LEAVES);
    const body = JSON.stringify({
      title: 'Reuse bench',
      generate: false,
      data: { label: 'Bench root', components: reusable.map((ct_id) => ({ ct_id })) },
    });
    const url = `${service.url}/api/v1/dmgen/assemble/`;
    const first = await postJson<{ published: boolean; generated: boolean }>(url, key, body, [200]);
    if (first.published !== true || first.generated !== false) throw new Error(`unexpected reuse assembly: ${JSON.stringify(first).slice(0, 500)}`);
    const run = {
      url,
      method: 'POST' as const,
      headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
      body,
      connections: 16,
    };
    // Unmeasured: the pool's connections opened, the statements prepared and the code optimised, as in a running service.
    await load('warm-up', { ...run, durationSeconds: 2 });
    const result = await load(`POST assemble/ (reuse, ${LEAVES} leaves, generate: false), c=16`, { ...run, durationSeconds: options.quick ? 5 : 15 });
    const models = await one<{ n: string }>(service.services.db, 'SELECT count(*) AS n FROM data_models WHERE owner_id = $1', [userId]);
    printTable([result]);
    console.log(`models built: ${models!.n}`);
    return { reuseAssemble: result, leaves: LEAVES, modelsBuilt: Number(models!.n) };
  } finally {
    await service.close();
  }
}

if (require.main === module) {
  benchReuseAssemble({ quick: process.argv.includes('--quick') })
    .then((result) => recordResults('assemble', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
