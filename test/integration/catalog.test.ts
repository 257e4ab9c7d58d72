import path from 'node:path';
import { issueKey, makeUser, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import type { Services } from '../../src/container';

const STATE_POPULATION = path.resolve(__dirname, '../../../shared/fixtures/sdc4/packages/StatePopulation');
const DM = 'its7j6bvrb9n2fxdcxmoemod';
const ROOT_CLUSTER = 'nk7ry8358vwjojwswli6ssrv';
const COMPONENTS = [
  { ct_id: 'poq4ywx89zvijxwoqz8djrxj', label: 'State', component_type: 'XdString' },
  { ct_id: 'ac79bjkqi8906qzjujpwtlsy', label: 'Adult Population', component_type: 'XdCount' },
  { ct_id: 'w30d6kzcdcfnjxvk94w58nfw', label: 'Total Population', component_type: 'XdCount' },
  { ct_id: 'hzsoktbrtlhowsl71kywg81w', label: 'Adult Population Percentage', component_type: 'XdQuantity' },
];
const COMPONENTS_URL = '/api/v1/catalog/components/';

/** A draft model of one user: a new component in a new cluster. */
async function draftModel(services: Services, ownerId: number, label: string) {
  return services.db.transaction(async (m) => {
    const component = await services.catalog.createComponent(m, {
      label,
      dataType: 'XdString',
      description: '',
      units: '',
      status: 'draft',
      ownerId,
    });
    const cluster = await services.catalog.createCluster(m, {
      label: `${label} cluster`,
      status: 'draft',
      ownerId,
      children: [{ componentId: component.id }],
    });
    const model = await services.catalog.createDataModel(m, { title: `${label} model`, rootClusterId: cluster.id, published: false, ownerId });
    return { component: component.ctId, cluster: cluster.ctId, model: model.ctId };
  });
}

const tableCounts = async (services: Services) =>
  (
    await services.db.query(`SELECT (SELECT count(*)::int FROM components) AS components, (SELECT count(*)::int FROM clusters) AS clusters,
      (SELECT count(*)::int FROM cluster_children) AS children, (SELECT count(*)::int FROM data_models) AS models`)
  )[0];

let app: TestApp;
let reader: HttpClient;
beforeAll(async () => {
  app = await startTestApp();
  // This file counts and pages the imported package's entries alone; the contextual library is tested elsewhere.
  await app.services.db.query('DELETE FROM components WHERE contextual_slot IS NOT NULL');
  await app.services.packages.importPackage(STATE_POPULATION);
  reader = (await signedIn(app.url, app.services)).client;
});
afterAll(() => app.close());

describe('importing a real package', () => {
  it('registers its four components, its cluster and its model with their original ct_ids, once', async () => {
    const before = await tableCounts(app.services);
    expect(before).toEqual({ components: 4, clusters: 1, children: 4, models: 1 });
    const again = await app.services.packages.importPackage(STATE_POPULATION);
    expect(again).toMatchObject({
      dmCtId: DM,
      title: 'StatePopulation',
      dataModelCreated: false,
      components: { created: [] },
      clusters: { created: [] },
    });
    expect(again.components.existing.sort()).toEqual(COMPONENTS.map((c) => c.ct_id).sort());
    expect(await tableCounts(app.services)).toEqual(before);
  });

  it('refuses a directory without a model schema, naming it', async () => {
    await expect(app.services.packages.importPackage(path.dirname(STATE_POPULATION))).rejects.toMatchObject({ code: 'invalid_package' });
  });
});

describe('GET components/', () => {
  it('lists the imported components as published library entries with a reuse reference', async () => {
    const res = await reader.get(`${COMPONENTS_URL}?project=library`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 4, page: 1, page_size: 50 });
    const byLabel = [...COMPONENTS].sort((a, b) => a.label.localeCompare(b.label));
    expect(res.body.results).toEqual(
      byLabel.map((c) => ({
        ...c,
        description: expect.any(String),
        project_name: 'library',
        reuse_ref: `@library:${c.label}`,
        units: null,
        pred_obj: [],
        status: 'published',
        successor: null,
      })),
    );
    expect(res.body.results.find((c: { label: string }) => c.label === 'State').description).toMatch(/^This column represents the U\.S\. state/);
  });

  it('filters by type (with or without the Type suffix), project and search', async () => {
    const labels = async (query: string) => (await reader.get(`${COMPONENTS_URL}?${query}`)).body.results.map((c: { label: string }) => c.label);
    expect(await labels('type=XdCount')).toEqual(['Adult Population', 'Total Population']);
    expect(await labels('type=XdQuantityType')).toEqual(['Adult Population Percentage']);
    expect(await labels('search=adult')).toEqual(['Adult Population', 'Adult Population Percentage']);
    expect(await labels('search=census')).toEqual(['Adult Population Percentage', 'Total Population']);
    expect(await labels(`search=${COMPONENTS[0].ct_id}`)).toEqual(['State']);
    expect(await labels('search=100%25')).toEqual([]);
    expect(await labels('project=nowhere')).toEqual([]);
  });

  it('pages by page and page_size, counting every match', async () => {
    const first = await reader.get(`${COMPONENTS_URL}?page_size=3&project=library`);
    const second = await reader.get(`${COMPONENTS_URL}?page_size=3&page=2&project=library`);
    const third = await reader.get(`${COMPONENTS_URL}?page_size=3&page=3&project=library`);
    expect([first.body.count, first.body.results.length, second.body.results.length, third.body.results.length]).toEqual([4, 3, 1, 0]);
    expect(second.body).toMatchObject({ page: 2, page_size: 3 });
    expect(new Set([...first.body.results, ...second.body.results].map((c: { ct_id: string }) => c.ct_id)).size).toBe(4);
  });

  it.each([
    ['type=a&type=b', 'type'],
    ['page=0', 'page'],
    ['page=x', 'page'],
    ['page_size=201', 'page_size'],
    ['status=gone', 'status'],
    ['search=a&search=b', 'search'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await reader.get(`${COMPONENTS_URL}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty(field);
  });

  it('answers anonymous callers the public entries, and a read-only key too', async () => {
    const anonymous = await new HttpClient(app.url).get(COMPONENTS_URL);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.count).toBe(4);
    const key = await issueKey(reader, { scopes: ['read'] });
    expect((await reader.withToken(key.key).get(COMPONENTS_URL)).status).toBe(200);
  });
});

describe('GET dms/ and dm/<ct_id>/', () => {
  it('lists the model with its identifier and catalog page', async () => {
    const res = await reader.get('/api/v1/catalog/dms/?search=statepop');
    expect(res.status).toBe(200);
    const base = app.services.settings.publicBaseUrl;
    expect(res.body).toEqual([
      {
        ct_id: DM,
        identifier: `dm-${DM}`,
        title: 'StatePopulation',
        description: expect.stringMatching(/^The 'StatePopulation' dataset/),
        project_name: 'library',
        about: `${base}/api/v1/catalog/dm/${DM}/`,
        created: expect.any(String),
        updated: expect.any(String),
      },
    ]);
    expect((await reader.get('/api/v1/catalog/dms/?search=no-such-model')).body).toEqual([]);
  });

  it('shows the model tree from its root cluster, in order, with artifact URLs', async () => {
    const res = await reader.get(`/api/v1/catalog/dm/${DM}/`);
    expect(res.status).toBe(200);
    const base = `${app.services.settings.publicBaseUrl}/api/v1/catalog/dm/${DM}`;
    expect(res.body.artifacts).toMatchObject({ xsd: `${base}/xsd/`, ttl: `${base}/ttl/`, skeleton: `${base}/skeleton/`, html: `${base}/html/` });
    expect(Object.keys(res.body.artifacts)).toHaveLength(11);
    // An imported model's own package is stored at import (served byte for byte).
    expect(res.body).toMatchObject({ ct_id: DM, identifier: `dm-${DM}`, published: true, generated: true, package_url: `${base}/package/` });
    expect(res.body.components).toHaveLength(1);
    const [root] = res.body.components;
    expect(root).toMatchObject({ type: 'Cluster', ct_id: ROOT_CLUSTER, label: 'StatePopulation Data Cluster', units: null });
    expect(root.children.map((c: Record<string, unknown>) => [c.type, c.ct_id, c.label, c.children])).toEqual(
      COMPONENTS.map((c) => [c.component_type, c.ct_id, c.label, []]),
    );
  });

  it('answers 404 for an unknown model', async () => {
    const res = await reader.get('/api/v1/catalog/dm/doesnotexist/');
    expect(res.status).toBe(404);
    expect(res.body.error_type).toBe('not_found');
  });
});

describe('drafts', () => {
  it('are visible to their owner only: lists, detail and the index', async () => {
    const owner = await signedIn(app.url, app.services);
    const other = await signedIn(app.url, app.services);
    const draft = await draftModel(app.services, owner.user.id, 'Secret reading');

    const ownerComponents = await owner.client.get(`${COMPONENTS_URL}?search=secret`);
    const ownProject = `${owner.user.email.split('@')[0]}-${owner.user.id}`;
    expect(ownerComponents.body.results).toEqual([expect.objectContaining({ ct_id: draft.component, status: 'draft', project_name: ownProject })]);
    expect((await other.client.get(`${COMPONENTS_URL}?search=secret`)).body).toMatchObject({ count: 0, results: [] });
    expect((await other.client.get(`${COMPONENTS_URL}?search=${draft.component}`)).body.count).toBe(0);

    expect((await owner.client.get('/api/v1/catalog/clusters/?search=secret')).body.count).toBe(1);
    expect((await other.client.get('/api/v1/catalog/clusters/?search=secret')).body.count).toBe(0);

    expect((await owner.client.get('/api/v1/catalog/dms/?search=secret')).body.map((m: { ct_id: string }) => m.ct_id)).toEqual([draft.model]);
    expect((await other.client.get('/api/v1/catalog/dms/?search=secret')).body).toEqual([]);

    const mine = await owner.client.get(`/api/v1/catalog/dm/${draft.model}/`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      published: false,
      components: [{ ct_id: draft.cluster, children: [{ ct_id: draft.component, type: 'XdString', description: null, units: null }] }],
    });
    const theirs = await other.client.get(`/api/v1/catalog/dm/${draft.model}/`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual((await other.client.get('/api/v1/catalog/dm/doesnotexist/')).body);

    const ownerIndex = (await owner.client.get('/api/v1/catalog/')).body;
    const otherIndex = (await other.client.get('/api/v1/catalog/')).body;
    expect(ownerIndex.counts.components - otherIndex.counts.components).toBe(1);
    expect(ownerIndex.counts.dms - otherIndex.counts.dms).toBe(1);
  });

  it('become visible to everyone once the model tree is published', async () => {
    const owner = await makeUser(app.services);
    const draft = await draftModel(app.services, owner.id, 'Later public');
    await app.services.db.transaction((m) => app.services.catalog.publishModelTree(m, draft.model));
    expect((await reader.get(`/api/v1/catalog/dm/${draft.model}/`)).body.published).toBe(true);
    expect((await reader.get(`${COMPONENTS_URL}?search=${draft.component}`)).body.results[0].status).toBe('published');
    expect((await reader.get(`/api/v1/catalog/clusters/?search=${draft.cluster}`)).body.results[0]).toMatchObject({
      status: 'published',
      child_count: 1,
    });
  });
});

describe('index', () => {
  it('names the endpoints, the data types and the library project', async () => {
    const res = await reader.get('/api/v1/catalog/');
    expect(res.status).toBe(200);
    expect(res.body.endpoints.components).toBe(`${app.services.settings.publicBaseUrl}${COMPONENTS_URL}`);
    expect(res.body.data_types).toContain('XdQuantity');
    expect(res.body.projects[0]).toMatchObject({ name: 'library', is_library: true });
    expect(res.body.projects[0].components).toBeGreaterThanOrEqual(4);
  });
});

describe('minting is idempotent by mint key', () => {
  it('returns the first row for a repeated mint key and never doubles cluster children', async () => {
    const owner = await makeUser(app.services);
    const mint = () =>
      app.services.db.transaction(async (m) => {
        const c = await app.services.catalog.createComponent(m, {
          label: 'Retry',
          dataType: 'XdBoolean',
          status: 'draft',
          ownerId: owner.id,
          mintKey: `test:${owner.id}:c`,
        });
        const k = await app.services.catalog.createCluster(m, {
          label: 'Retry cluster',
          status: 'draft',
          ownerId: owner.id,
          children: [{ componentId: c.id }],
          mintKey: `test:${owner.id}:k`,
        });
        return [c.ctId, k.ctId, k.id];
      });
    const first = await mint();
    expect(await mint()).toEqual(first);
    expect((await app.services.db.query('SELECT count(*)::int AS n FROM cluster_children WHERE cluster_id = $1', [first[2]]))[0].n).toBe(1);
  });

  it('refuses an unknown data type as a malformed tree', async () => {
    await expect(
      app.services.db.transaction((m) =>
        app.services.catalog.createComponent(m, { label: 'X', dataType: 'XdMagic', status: 'draft', ownerId: null }),
      ),
    ).rejects.toMatchObject({ status: 400, fields: { details: { data_type: [expect.stringContaining('XdMagic')] } } });
  });
});
