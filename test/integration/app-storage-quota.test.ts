import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadSettings, type Settings } from '../../src/config';
import { form, makeZip, SP_CT_ID, storedNames, STATE_POPULATION, startAppUnderTest, type AppUnderTest } from './app-helpers';

/** Interface B's storage caps (issue 30, points 5 and 7): what an organisation stores (instances and uploaded
 * files) within APP_STORAGE_QUOTA_BYTES, its graphs' triples within APP_MAX_TRIPLES_PER_ORGANIZATION, and every organisation's
 * triples (what the embedded SPARQL store loads) within APP_MAX_TRIPLES. The write past a cap answers 507
 * STORAGE_QUOTA_EXCEEDED in Interface B's shape, naming the setting, and stores nothing; other organisations keep
 * their own room. */

const xsd = () => readFile(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`));
const instanceXml = () => readFile(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`), 'utf8');

async function appWith(appStorage: Partial<Settings['appStorage']>): Promise<AppUnderTest> {
  const app = await startAppUnderTest({ appStorage: { ...loadSettings({}).appStorage, ...appStorage } }, { workers: false });
  const uploaded = await app.call('POST', '/api/v1/upload/schema/', {
    body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: await xsd() }]),
  });
  expect(uploaded.status).toBe(201);
  return app;
}

async function organization(app: AppUnderTest, name: string): Promise<string> {
  return (await app.services.app.keys.create({ organization: name, contactEmail: `${name.replace(/\W/g, '')}@example.org` })).plaintext;
}

const validate = async (app: AppUnderTest, key: string) =>
  app.call('POST', '/api/v1/validate/xml/', {
    body: JSON.stringify({ xml_content: await instanceXml(), sync_triplestore: false }),
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
  });

/** Validates until refused (at most 50 times): how many were stored, and the refusal. */
async function fill(app: AppUnderTest, key: string): Promise<{ accepted: number; refused: { status: number; body: any } }> {
  for (let accepted = 0; accepted < 50; accepted++) {
    const res = await validate(app, key);
    if (res.status !== 201) return { accepted, refused: res };
  }
  throw new Error('never refused');
}

const usage = async (app: AppUnderTest, organization: string) => {
  const [row] = await app.services.db.query(
    `SELECT (SELECT count(*)::int FROM app_instances WHERE organization = $1) AS instances,
            (SELECT coalesce(sum(stored_bytes), 0)::int FROM app_instances WHERE organization = $1) AS bytes,
            (SELECT coalesce(sum(triple_count), 0)::int FROM app_graphs WHERE organization = $1) AS triples,
            (SELECT coalesce(sum(triple_count), 0)::int FROM app_graphs) AS total`,
    [organization],
  );
  return row as { instances: number; bytes: number; triples: number; total: number };
};

const expectQuotaError = (refused: { status: number; body: any }, setting: string, limit: number) => {
  expect(refused.status).toBe(507);
  expect(refused.body).toMatchObject({ success: false, error: { code: 'STORAGE_QUOTA_EXCEEDED', details: { setting, limit } } });
  expect(refused.body.error.message).toContain(setting);
};

describe('storage per organisation', () => {
  const QUOTA = 100_000;
  let app: AppUnderTest;
  beforeAll(async () => {
    app = await appWith({ storageQuotaBytes: QUOTA });
  }, 120_000);
  afterAll(() => app?.close());

  it('refuses the instance past APP_STORAGE_QUOTA_BYTES with a 507, stores nothing, and leaves others their quota', async () => {
    const key = await organization(app, 'Quota Org');
    const { accepted, refused } = await fill(app, key);
    expect(accepted).toBeGreaterThan(0);
    expectQuotaError(refused, 'APP_STORAGE_QUOTA_BYTES', QUOTA);
    const held = await usage(app, 'Quota Org');
    expect(held.instances).toBe(accepted);
    expect(held.bytes).toBeLessThanOrEqual(QUOTA);
    expect(held.bytes + refused.body.error.details.requested).toBeGreaterThan(QUOTA);
    // Over GraphQL, the same refusal.
    const gql = await app.call('POST', '/graphql', {
      body: JSON.stringify({
        query: 'mutation ($x: String) { validateXml(xmlContent: $x, syncTriplestore: false) { instanceId } }',
        variables: { x: await instanceXml() },
      }),
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
    });
    expect(gql.body.errors[0].extensions.code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect((await usage(app, 'Quota Org')).instances).toBe(accepted);

    const other = await organization(app, 'Other Org');
    expect((await validate(app, other)).status).toBe(201);
  });

  it('counts uploaded files toward the same quota, a replaced file only for what it adds', async () => {
    const key = await organization(app, 'Files Org');
    // Random bytes stored, not deflated: each ZIP is about 40 KB.
    const zip = await makeZip([{ name: 'data.bin', content: randomBytes(40_000), compress: false }]);
    const upload = (name: string) =>
      app.call('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name, content: zip }]), headers: { 'x-api-key': key } });
    expect((await upload('one.zip')).status).toBe(201);
    expect((await upload('two.zip')).status).toBe(201);
    const third = await upload('three.zip');
    expectQuotaError(third, 'APP_STORAGE_QUOTA_BYTES', QUOTA);
    expect(await storedNames(app.storageDir, 'zip')).toEqual(['one.zip', 'two.zip']);
    // The same name again replaces the file: no new bytes, so it fits.
    expect((await upload('two.zip')).status).toBe(201);
    // Another organisation's files are counted toward its own quota.
    const other = await organization(app, 'Other Files Org');
    const theirs = await app.call('POST', '/api/v1/upload/zip/', {
      body: form([{ field: 'file', name: 'three.zip', content: zip }]),
      headers: { 'x-api-key': other },
    });
    expect(theirs.status).toBe(201);
  });
});

describe('stored triples per organisation and overall', () => {
  const PER_ORGANIZATION = 200;
  const OVERALL = 300;
  let app: AppUnderTest;
  beforeAll(async () => {
    app = await appWith({ maxTriplesPerOrganization: PER_ORGANIZATION, maxTriples: OVERALL });
  }, 120_000);
  afterAll(async () => {
    await app?.services.app.graphs.close();
    await app?.close();
  });

  it("refuses the graph past the organisation's cap, then past the overall cap, and the SPARQL store holds what was admitted", async () => {
    const first = await organization(app, 'First Org');
    const a = await fill(app, first);
    expect(a.accepted).toBeGreaterThan(0);
    expectQuotaError(a.refused, 'APP_MAX_TRIPLES_PER_ORGANIZATION', PER_ORGANIZATION);
    expect((await usage(app, 'First Org')).triples).toBeLessThanOrEqual(PER_ORGANIZATION);

    // A second organisation has its own cap, but not the whole store's room: the overall cap refuses it sooner.
    const second = await organization(app, 'Second Org');
    const b = await fill(app, second);
    expectQuotaError(b.refused, 'APP_MAX_TRIPLES', OVERALL);
    expect(b.accepted).toBeLessThan(a.accepted);
    const totals = await usage(app, 'Second Org');
    expect(totals.total).toBeLessThanOrEqual(OVERALL);
    expect(totals.instances).toBe(b.accepted);

    // upload/rdf is counted too: the model's schema graph does not fit, and nothing of it is stored.
    const ttl = await readFile(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.ttl`));
    const rdf = await app.call('POST', '/api/v1/upload/rdf/', {
      body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: ttl }]),
      headers: { 'x-api-key': await organization(app, 'Third Org') },
    });
    expectQuotaError(rdf, 'APP_MAX_TRIPLES', OVERALL);
    expect((await app.services.db.query(`SELECT count(*)::int AS n FROM app_graphs WHERE source = 'schema'`))[0].n).toBe(0);

    // The embedded SPARQL store loads every admitted triple and no more.
    const count = await app.call('GET', `/api/v1/sparql?query=${encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }')}`, {
      headers: { 'x-api-key': first, accept: 'application/sparql-results+json' },
    });
    expect(count.status).toBe(200);
    expect(Number(count.body.results.bindings[0].n.value)).toBeLessThanOrEqual(OVERALL);
  });
});
