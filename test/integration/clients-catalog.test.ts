import path from 'node:path';
import { issueKey, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { LIBRARY_UNITS_COUNT } from '../../src/db/migrations/0023-units-library';

/** The SDC4 agent toolkit's catalog calls, replayed as clients.md lists them: anonymously, then with a key. */

const STATE_POPULATION = path.resolve(__dirname, '../../../shared/fixtures/sdc4/packages/StatePopulation');
const DM = 'its7j6bvrb9n2fxdcxmoemod';
const SLOTS = ['audit', 'attestation', 'party', 'subject', 'provider', 'participation', 'protocol', 'workflow', 'acs'];
const ARTIFACT_KEYS = ['xsd', 'xml', 'json', 'jsonld', 'html', 'ttl', 'shacl', 'gql', 'zip', 'sha1', 'skeleton'];
/** A string or null: what a client reading an optional text field accepts. */
const nullable = (_type: StringConstructor) => ({
  asymmetricMatch: (value: unknown) => value === null || typeof value === 'string',
  toAsymmetricMatcher: () => 'string or null',
});

let app: TestApp;
let anonymous: HttpClient;
let keyed: HttpClient;
let owner: Awaited<ReturnType<typeof signedIn>>;
let freshDm: string;

beforeAll(async () => {
  app = await startTestApp({ anonymousReadsPerHour: 1000 }, { workers: false });
  await app.services.packages.importPackage(STATE_POPULATION);
  owner = await signedIn(app.url, app.services, { credits: 100_000 });
  const assembled = await owner.client.post('/api/v1/dmgen/assemble/', {
    title: 'Fresh clinic visit',
    data: { label: 'Visit', components: [{ ct_id: 'poq4ywx89zvijxwoqz8djrxj' }] },
    publish: true,
    generate: false,
  });
  if (assembled.status !== 200) throw new Error(`assemble: ${assembled.status} ${assembled.text}`);
  freshDm = assembled.body.ct_id as string;
  anonymous = new HttpClient(app.url);
  keyed = owner.client.withToken((await issueKey(owner.client)).key);
});
afterAll(() => app.close());

const modelSummary = {
  ct_id: expect.any(String),
  identifier: expect.any(String),
  title: expect.any(String),
  description: nullable(String),
  project_name: expect.any(String),
  about: expect.any(String),
  created: expect.any(String),
  updated: expect.any(String),
};

const catalogComponent = {
  ct_id: expect.any(String),
  label: expect.any(String),
  description: nullable(String),
  component_type: expect.stringMatching(/^[A-Z]/),
  project_name: expect.any(String),
  reuse_ref: expect.any(String),
  units: nullable(String),
  pred_obj: expect.any(Array),
};

describe.each([
  ['without credentials', () => anonymous],
  ['with a key', () => keyed],
])('the toolkit %s', (_name, client) => {
  it('lists published models, the imported and the freshly assembled one', async () => {
    const res = await client().get('/api/v1/catalog/dms/');
    expect(res.status).toBe(200);
    expect(res.body.map((m: { ct_id: string }) => m.ct_id)).toEqual(expect.arrayContaining([DM, freshDm]));
    for (const model of res.body) expect(model).toMatchObject(modelSummary);
    expect((await client().get(`/api/v1/catalog/dms/?search=${DM}`)).body).toEqual([expect.objectContaining({ ct_id: DM })]);
  });

  it.each([
    ['imported', () => DM],
    ['assembled', () => freshDm],
  ])('reads the %s model detail: tree with name and parent_cluster, every artefact key', async (_kind, ctId) => {
    const res = await client().get(`/api/v1/catalog/dm/${ctId()}/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: expect.any(String), project_name: expect.any(String) });
    expect(Object.keys(res.body.artifacts).sort()).toEqual([...ARTIFACT_KEYS].sort());
    for (const url of Object.values(res.body.artifacts)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/catalog\/dms?\//);
    const [root] = res.body.components;
    expect(root).toMatchObject({ type: 'Cluster', ct_id: expect.any(String), label: expect.any(String), name: root.label, parent_cluster: null });
    for (const child of root.children) {
      expect(child).toMatchObject({
        type: expect.any(String),
        ct_id: expect.any(String),
        label: expect.any(String),
        name: expect.any(String),
        parent_cluster: root.ct_id,
        description: nullable(String),
        units: nullable(String),
        children: [],
      });
    }
  });

  it('reads the ttl and skeleton artefacts and the SDC4 ontology as text', async () => {
    for (const kind of ['ttl', 'skeleton']) {
      const res = await client().get(`/api/v1/catalog/dm/${DM}/${kind}/`);
      expect([kind, res.status]).toEqual([kind, 200]);
      expect(res.text.length).toBeGreaterThan(100);
    }
    const ontology = await client().get('/api/v1/catalog/ontologies/sdc4/');
    expect(ontology.status).toBe(200);
    expect(ontology.text).toContain('rdf:RDF');
  });

  it('asks for each contextual slot and gets the library component made for it', async () => {
    for (const slot of SLOTS) {
      const res = await client().get(`/api/v1/catalog/components/?project=library&type=${slot}`);
      expect([slot, res.status]).toEqual([slot, 200]);
      expect(res.body).toMatchObject({ page: 1, page_size: 50 });
      expect([slot, res.body.results[0]]).toEqual([slot, expect.objectContaining({ ct_id: expect.any(String), label: expect.any(String) })]);
    }
  });

  it('searches components by lowercase reference-model type, on fixed pages of 50', async () => {
    const res = await client().get('/api/v1/catalog/components/?search=&type=xdcount&page=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, page: 1, page_size: 50 });
    for (const c of res.body.results) expect(c).toEqual(expect.objectContaining({ ...catalogComponent, component_type: 'XdCount' }));
    expect((await client().get('/api/v1/catalog/components/?type=XDCOUNTTYPE')).body.count).toBe(2);
    expect((await client().get('/api/v1/catalog/components/?type=nosuchtype')).body).toMatchObject({ count: 0, results: [] });
  });
});

describe('what credentials add', () => {
  it('hides drafts from anonymous readers and shows them to their owner', async () => {
    const draft = await owner.client.post('/api/v1/dmgen/assemble/', {
      title: 'Private draft',
      data: { label: 'Draft root', components: [{ ct_id: 'poq4ywx89zvijxwoqz8djrxj' }] },
      publish: false,
      generate: false,
    });
    expect(draft.status).toBe(200);
    expect((await anonymous.get(`/api/v1/catalog/dm/${draft.body.ct_id}/`)).status).toBe(404);
    expect((await keyed.get(`/api/v1/catalog/dm/${draft.body.ct_id}/`)).status).toBe(200);
  });

  it('names the default project in /auth/modeler/, which holds what assembly minted', async () => {
    const modeler = await keyed.get('/api/v1/auth/modeler/');
    expect(modeler.status).toBe(200);
    expect(modeler.body).toEqual({
      name: expect.any(String),
      email: owner.user.email,
      project_ct_id: expect.any(String),
      project_name: expect.any(String),
      project_is_public: true,
    });
    const detail = await keyed.get(`/api/v1/catalog/dm/${freshDm}/`);
    expect(detail.body.project_name).toBe(modeler.body.project_name);
    const scoped = await keyed.get('/api/v1/catalog/dms/?scope=default_project');
    expect(scoped.body.map((m: { ct_id: string }) => m.ct_id)).toContain(freshDm);
    expect(scoped.body.map((m: { ct_id: string }) => m.ct_id)).not.toContain(DM);
    const byCtId = await keyed.get(`/api/v1/catalog/clusters/?project=${modeler.body.project_ct_id}`);
    expect(byCtId.body.count).toBeGreaterThanOrEqual(1);
  });

  it('lists the library and the caller’s projects at /dmgen/projects/', async () => {
    const res = await keyed.get('/api/v1/dmgen/projects/?page_size=200');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(res.body.results).toEqual([
      { ct_id: expect.any(String), name: 'library', owner_email: null, is_public: true, is_default_library: true },
      { ct_id: expect.any(String), name: expect.any(String), owner_email: owner.user.email, is_public: true, is_default_library: false },
    ]);
    expect((await anonymous.get('/api/v1/dmgen/projects/')).status).toBe(401);
  });

  it('answers /dmgen/components/ as {count, next, previous, results}', async () => {
    const library = (await keyed.get('/api/v1/dmgen/projects/')).body.results[0].ct_id as string;
    const first = await keyed.get(`/api/v1/dmgen/components/?status=published&search=&page_size=3&project=${library}`);
    expect(first.status).toBe(200);
    // The four imported StatePopulation components, its cluster, the nine of the contextual library and the Units.
    expect(first.body).toMatchObject({ count: 14 + LIBRARY_UNITS_COUNT, previous: null, next: expect.stringContaining('page=2') });
    expect(first.body.results).toHaveLength(3);
    expect(first.body.results[0]).toEqual({
      ct_id: expect.any(String),
      label: expect.any(String),
      description: nullable(String),
      type: expect.stringMatching(/^(xd[a-z]+|units)$/),
      component_type: expect.stringMatching(/^(Xd|Units$)/),
      published: true,
      public: true,
      project_name: 'library',
      project_ct_id: library,
      units: nullable(String),
      created: expect.any(String),
      updated: expect.any(String),
    });
    const second = await keyed.get(first.body.next.replace(app.url, ''));
    expect(second.body).toMatchObject({
      count: 14 + LIBRARY_UNITS_COUNT,
      next: expect.stringContaining('page=3'),
      previous: expect.stringContaining('page=1'),
    });
    expect(second.body.results).toHaveLength(3);
    const pages = Math.ceil((14 + LIBRARY_UNITS_COUNT) / 3);
    const last = await keyed.get(`/api/v1/dmgen/components/?status=published&search=&page_size=3&project=${library}&page=${pages}`);
    expect(last.body).toMatchObject({ count: 14 + LIBRARY_UNITS_COUNT, next: null, previous: expect.stringContaining(`page=${pages - 1}`) });
    expect(last.body.results).toHaveLength((14 + LIBRARY_UNITS_COUNT) % 3 || 3);
  });

  it('answers the same reads over GraphQL without credentials', async () => {
    const res = await anonymous.post('/graphql', {
      query: `query($ct: String!) { catalogModel(ctId: $ct) { title root { name parentCluster children { name parentCluster } } artifacts { gql zip } } }`,
      variables: { ct: DM },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.catalogModel).toMatchObject({ title: 'StatePopulation', root: { parentCluster: null } });
  });
});

/** Last: it adds a library component the counts above do not expect. */
it('finds a library component made for a contextual slot by the slot name, in any case', async () => {
  const made = await app.services.db.transaction((manager) =>
    app.services.catalog.createComponent(manager, {
      label: 'Study protocol',
      dataType: 'XdString',
      status: 'published',
      ownerId: null,
      contextualSlot: 'protocol',
    }),
  );
  const res = await anonymous.get('/api/v1/catalog/components/?project=library&type=PROTOCOL');
  // Besides the contextual library's own protocol component.
  expect(res.body.results.map((c: { ct_id: string }) => c.ct_id)).toContain(made.ctId);
  expect(res.body.count).toBe(2);
  expect((await anonymous.get('/api/v1/catalog/components/?project=library&type=workflow')).body.count).toBe(1);
});
