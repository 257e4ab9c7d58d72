import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rdfSyncTask } from '../../src/jobs/rdf-sync.task';
import { runQueueTask } from '../../src/jobs/runner';
import { GraphStoreClient } from '../../src/rdf/graph-store-client';
import { startVirtuoso, type VirtuosoServer } from '../support/virtuoso';
import { form, SP_CT_ID, startAppUnderTest, STATE_POPULATION, type AppUnderTest } from './app-helpers';

/** Interface B with a real Virtuoso that goes away while validations keep coming, then returns. The service's
 * resync sweep runs every 2 s here (RDF_RESYNC_SECONDS); nothing else is sent after Virtuoso returns. */
const SP_XML = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`)).toString();
const RETRY_LIMIT = rdfSyncTask.queueOptions.retryLimit;

let virtuoso: VirtuosoServer;
let app: AppUnderTest;
let store: GraphStoreClient;

beforeAll(async () => {
  virtuoso = await startVirtuoso();
  app = await startAppUnderTest({
    triplestore: {
      url: virtuoso.graphStoreUrl,
      queryUrl: virtuoso.queryUrl,
      protocol: 'graph-store',
      repository: null,
      user: virtuoso.user,
      password: virtuoso.password,
    },
    rdfResyncSeconds: 2,
  });
  store = new GraphStoreClient({
    graphStoreUrl: virtuoso.graphStoreUrl,
    queryUrl: virtuoso.queryUrl,
    user: virtuoso.user,
    password: virtuoso.password,
  });
  const xsd = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`));
  expect(
    (await app.call('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: xsd }]) })).status,
  ).toBe(201);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await virtuoso?.dispose();
});

interface SyncState {
  instance_id: string;
  rdf_sync_status: string;
  rdf_sync_attempts: number;
  rdf_sync_error: string | null;
  graph_uri: string;
  triple_count: number;
}

const states = (ids: string[]): Promise<SyncState[]> =>
  app.services.db.query(
    `SELECT i.instance_id, i.rdf_sync_status, i.rdf_sync_attempts, i.rdf_sync_error, i.graph_uri, g.triple_count
       FROM app_instances i JOIN app_graphs g ON g.graph_uri = i.graph_uri WHERE i.instance_id = ANY($1) ORDER BY i.id`,
    [ids],
  );

async function until(ids: string[], done: (s: SyncState) => boolean, timeoutMs: number, what: string): Promise<SyncState[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await states(ids);
    if (current.length === ids.length && current.every(done)) return current;
    if (Date.now() > deadline)
      throw new Error(
        `${what} not reached in ${timeoutMs} ms: ${JSON.stringify(current.map(({ instance_id, rdf_sync_status, rdf_sync_attempts }) => ({ instance_id, rdf_sync_status, rdf_sync_attempts })))}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Validates `count` documents while the triplestore is down: each answers 201 and is stored pending. */
async function validateWhileDown(count: number): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      app.call('POST', '/api/v1/validate/xml/', { body: JSON.stringify({ xml_content: SP_XML }), headers: { 'content-type': 'application/json' } }),
    ),
  );
  for (const answer of answers) {
    expect({ status: answer.status, success: answer.body?.success, sync: answer.body?.data?.rdf_sync_status }).toEqual({
      status: 201,
      success: true,
      sync: 'pending',
    });
  }
  return answers.map((a) => a.body.data.instance_id as string);
}

/** Every instance's graph is in Virtuoso with as many triples as the service stored. */
async function expectInVirtuoso(synced: SyncState[]): Promise<void> {
  for (const s of synced) {
    expect({ graph: s.graph_uri, triples: await store.tripleCount(s.graph_uri) }).toEqual({ graph: s.graph_uri, triples: s.triple_count });
  }
}

describe('Virtuoso down during validation traffic', () => {
  jest.setTimeout(120_000);

  it('stores every instance pending while Virtuoso is down and syncs them all after it returns, with no new request', async () => {
    await virtuoso.stop();
    let ids: string[];
    try {
      ids = await validateWhileDown(8);
      // Each has failed against the stopped server at least twice: its next retry is seconds of backoff away.
      const failing = await until(ids, (s) => s.rdf_sync_attempts >= 2, 30_000, 'two failed attempts each');
      for (const s of failing) expect(s).toMatchObject({ rdf_sync_status: 'pending', rdf_sync_error: expect.any(String) });
    } finally {
      await virtuoso.restart();
    }
    const synced = await until(ids, (s) => s.rdf_sync_status === 'synced', 30_000, 'every instance synced');
    console.log(`triplestore outage (retrying): ${synced.length} instances validated while down, ${synced.length} synced after its return`);
    expect(synced.map((s) => s.rdf_sync_error)).toEqual(ids.map(() => null));
    await expectInVirtuoso(synced);
  });

  it('syncs instances whose retries ran out while Virtuoso was down once it answers again', async () => {
    await virtuoso.stop();
    let ids: string[];
    try {
      ids = await validateWhileDown(4);
      await until(ids, (s) => s.rdf_sync_attempts >= 1, 30_000, 'a failed attempt each');
      // The last allowed attempt of each, through the runner (the path pg-boss reaches after its retries): given up.
      for (const id of ids)
        await runQueueTask(app.services, rdfSyncTask, { instanceId: id }, { id: 'last', retryCount: RETRY_LIMIT, retryLimit: RETRY_LIMIT });
      // While Virtuoso stays down, the sweep's offers fail and the instances stay failed, with their error.
      await new Promise((r) => setTimeout(r, 4000));
      for (const s of await states(ids)) expect(s).toMatchObject({ rdf_sync_status: 'failed', rdf_sync_error: expect.any(String) });
    } finally {
      await virtuoso.restart();
    }
    const synced = await until(ids, (s) => s.rdf_sync_status === 'synced', 30_000, 'every failed instance synced');
    console.log(`triplestore outage (retries exhausted): ${ids.length} failed instances, ${synced.length} synced after its return`);
    await expectInVirtuoso(synced);
  });
});
