import { loadSettings } from '../../src/config';
import type { VaasOnceAnswer, VaasOnceTask, VaasSchemaSet } from '../../src/workers/vaas.task';
import { CpuPool, runAsCpuCaller } from '../../src/workers/pool';
import { gatherSchemaSet } from '../../src/xml/schema-set';
import { offlineResolver, STATE_POPULATION_CT_ID, statePopulationXml, statePopulationXsd } from '../unit/xml/fixtures';

/** What the tenant flood (tenant-flood.test.ts) showed with real worker threads (`npm run build` first): each thread
 * compiles a schema on its own, and while the pool was quiet every task went to the first idle thread, so the other
 * compiled the victim's schema first under attack, its one large thread busy: a 3 ms validation took 300 ms. Idle
 * threads now take tasks at random, so a schema in use is compiled on each while the pool is quiet. */

const json = (values: number) => new TextEncoder().encode(JSON.stringify({ values: Array.from({ length: values }, (_, i) => ({ i, s: `v${i}` })) }));

let schema: Required<VaasSchemaSet>;
beforeAll(async () => {
  const set = await gatherSchemaSet(statePopulationXsd(), offlineResolver());
  schema = { key: `spread-${set.key}`, documents: set.documents.map((d) => ({ location: d.location, name: d.name, text: d.text })) };
});

const task = (withDocuments: boolean): VaasOnceTask => ({
  xml: statePopulationXml(),
  expected: { dmCtId: STATE_POPULATION_CT_ID },
  schema: withDocuments ? schema : { key: schema.key },
  recover: false,
  countEvs: false,
  keepText: false,
  render: null,
});

const validate = (pool: CpuPool, withDocuments: boolean) =>
  runAsCpuCaller('key:victim', () => pool.run<VaasOnceTask, VaasOnceAnswer>('vaas', 'vaasOnce', task(withDocuments)));

it("compiles a caller's schema on every thread while the pool is quiet, so a busy thread leaves no cold one", async () => {
  const pool = new CpuPool({ ...loadSettings({}).cpu, threads: 2, maxQueue: 64, maxQueuePerCaller: 16, largeTaskBytes: 100_000 });
  try {
    await pool.warm();
    // The service's protocol, one request at a time: the key alone, the documents when a thread asks for them.
    // A cold thread compiles when it takes a request and then its retry: a quarter of the requests, at random, so
    // sixty leave it cold about once in twenty million runs.
    let compiles = 0;
    for (let i = 0; i < 60; i++) {
      const answer = await validate(pool, false);
      if (!('needSchema' in answer)) continue;
      compiles++;
      expect(await validate(pool, true)).toMatchObject({ done: { valid: true } });
    }
    expect(compiles).toBeGreaterThan(0);

    // One thread busy with a large task: the key alone is enough on the other.
    const large = runAsCpuCaller('key:flood', () => pool.run('body', 'jsonObject', json(200_000)));
    const answer = await validate(pool, false);
    await large;
    expect(answer).toMatchObject({ done: { valid: true } });
  } finally {
    await pool.close();
  }
});
