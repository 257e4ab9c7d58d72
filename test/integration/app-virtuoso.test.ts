import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { rdfSyncTask } from '../../src/jobs/rdf-sync.task';
import { runQueueTask } from '../../src/jobs/runner';
import { GraphStoreClient } from '../../src/rdf/graph-store-client';
import { startVirtuoso, type VirtuosoServer } from '../support/virtuoso';
import { form, SP_CT_ID, startAppUnderTest, STATE_POPULATION, type AppUnderTest } from './app-helpers';

const fixture = (name: string) => readFileSync(path.join(STATE_POPULATION, name));
const SP_XML = fixture(`dm-${SP_CT_ID}.xml`).toString();
const SCHEMA_GRAPH = `urn:sdc4:dm-${SP_CT_ID}:schema`;
const RETRY_LIMIT = rdfSyncTask.queueOptions.retryLimit;

let virtuoso: VirtuosoServer;
let app: AppUnderTest;
let store: GraphStoreClient;

beforeAll(async () => {
  virtuoso = await startVirtuoso();
  const triplestore = {
    url: virtuoso.graphStoreUrl,
    queryUrl: virtuoso.queryUrl,
    protocol: 'graph-store' as const,
    repository: null,
    user: virtuoso.user,
    password: virtuoso.password,
  };
  app = await startAppUnderTest({ triplestore });
  store = new GraphStoreClient({
    graphStoreUrl: virtuoso.graphStoreUrl,
    queryUrl: virtuoso.queryUrl,
    user: virtuoso.user,
    password: virtuoso.password,
  });
  const schema = await app.call('POST', '/api/v1/upload/schema/', {
    body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: fixture(`dm-${SP_CT_ID}.xsd`) }]),
  });
  expect(schema.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await virtuoso?.dispose();
});

const storedCount = async (graph: string) =>
  Number((await app.services.db.query('SELECT triple_count FROM app_graphs WHERE graph_uri = $1', [graph]))[0].triple_count);
const validate = () =>
  app.call('POST', '/api/v1/validate/xml/', { body: JSON.stringify({ xml_content: SP_XML }), headers: { 'content-type': 'application/json' } });
const instance = async (id: string) => (await app.call('GET', `/api/v1/instances/${id}/`)).body.data;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

describe('RDF upload to Virtuoso', () => {
  it('writes the schema graph and answers synced', async () => {
    const res = await app.call('POST', '/api/v1/upload/rdf/', {
      body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: fixture(`dm-${SP_CT_ID}.ttl`) }]),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ triplestore_status: 'synced', graph_uri: SCHEMA_GRAPH });
    expect(await store.tripleCount(SCHEMA_GRAPH)).toBe(await storedCount(SCHEMA_GRAPH));
    expect(await store.tripleCount(SCHEMA_GRAPH)).toBeGreaterThan(50);
  });
});

describe('instance sync to Virtuoso', () => {
  it('answers pending, then the job writes the instance graph and the instance reads synced', async () => {
    const res = await validate();
    expect(res.status).toBe(201);
    expect(res.body.data.rdf_sync_status).toBe('pending');
    const id = res.body.data.instance_id as string;
    const synced = await until(
      () => instance(id),
      (i) => i.rdf_sync_status === 'synced',
      20_000,
    );
    expect(synced).toMatchObject({ rdf_sync_status: 'synced', rdf_sync_error: null, rdf_synced_at: expect.any(String) });
    const graph = `urn:sdc4:instance:${id}`;
    expect(await store.tripleCount(graph)).toBe(await storedCount(graph));
    expect(
      await store.select(`SELECT ?label WHERE { GRAPH <${graph}> { <${graph}> <https://semanticdatacharter.com/ns/sdc4/dm-label> ?label } }`),
    ).toEqual([{ label: 'StatePopulation' }]);
  });
});

describe('Virtuoso down, then up', () => {
  it('loses nothing: the RDF upload fails but keeps its file, pending and failed instances sync once it is back', async () => {
    let exhaustedId = '';
    await virtuoso.stop();
    try {
      const upload = await app.call('POST', '/api/v1/upload/rdf/', {
        body: form([{ field: 'file', name: `dm-${SP_CT_ID}.rdf`, content: fixture(`dm-${SP_CT_ID}.rdf`) }]),
      });
      expect(upload.status).toBe(201);
      expect(upload.body.data.triplestore_status).toBe('failed');
      expect(existsSync(path.join(app.storageDir, 'dmlib', `dm-${SP_CT_ID}.rdf`))).toBe(true);

      const pending = await validate();
      expect(pending.body.data.rdf_sync_status).toBe('pending');
      const retrying = pending.body.data.instance_id as string;
      const attempted = await until(
        () => instance(retrying),
        (i) => i.rdf_sync_attempts >= 1,
        15_000,
      );
      expect(attempted).toMatchObject({ rdf_sync_status: 'pending', rdf_sync_error: expect.any(String) });

      const exhausted = (await validate()).body.data.instance_id as string;
      exhaustedId = exhausted;
      await until(
        () => instance(exhausted),
        (i) => i.rdf_sync_attempts >= 1,
        15_000,
      );
      // The last allowed attempt, through the runner, gives up: the instance is failed and waits for the triplestore's return.
      await runQueueTask(app.services, rdfSyncTask, { instanceId: exhausted }, { id: 'last', retryCount: RETRY_LIMIT, retryLimit: RETRY_LIMIT });
      expect((await instance(exhausted)).rdf_sync_status).toBe('failed');
    } finally {
      await virtuoso.restart();
    }
    const afterRestart = await validate();
    const fresh = afterRestart.body.data.instance_id as string;
    expect(
      (
        await until(
          () => instance(fresh),
          (i) => i.rdf_sync_status === 'synced',
          30_000,
        )
      ).rdf_sync_status,
    ).toBe('synced');
    const states = await until(
      () => app.services.db.query(`SELECT instance_id, rdf_sync_status FROM app_instances WHERE rdf_sync_status <> 'synced'`),
      (rows: unknown[]) => rows.length === 0,
      45_000,
    );
    expect(states).toEqual([]);
    const graphs = await app.services.db.query(`SELECT graph_uri, triple_count FROM app_graphs WHERE source = 'instance'`);
    for (const g of graphs)
      expect({ graph: g.graph_uri, count: await store.tripleCount(g.graph_uri) }).toEqual({ graph: g.graph_uri, count: g.triple_count });
    // A give-up arriving after the instance synced (a requeued attempt won the race) leaves it synced.
    await rdfSyncTask.giveUp(app.services, { instanceId: exhaustedId }, 'a late give-up');
    expect(await instance(exhaustedId)).toMatchObject({ rdf_sync_status: 'synced', rdf_sync_error: null });
  }, 120_000);
});
