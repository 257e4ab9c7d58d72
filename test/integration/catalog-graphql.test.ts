import path from 'node:path';
import { issueKey, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

const STATE_POPULATION = path.resolve(__dirname, '../../../shared/fixtures/sdc4/packages/StatePopulation');
const DM = 'its7j6bvrb9n2fxdcxmoemod';

let app: TestApp;
let client: HttpClient;
beforeAll(async () => {
  app = await startTestApp();
  // This file counts the imported package's entries alone; the contextual library is tested elsewhere.
  await app.services.db.query('DELETE FROM components WHERE contextual_slot IS NOT NULL');
  await app.services.packages.importPackage(STATE_POPULATION);
  client = (await signedIn(app.url, app.services)).client;
});
afterAll(() => app.close());

describe('GraphQL catalog queries', () => {
  it('list components with the same filters and fields as REST', async () => {
    const res = await client.graphql(
      `query ($type: String, $page: Int) {
        catalogComponents(type: $type, project: "library", page: $page, pageSize: 1) {
          count page pageSize results { ctId label componentType projectName reuseRef status successor units }
        }
      }`,
      { type: 'XdCount', page: 2 },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.catalogComponents).toEqual({
      count: 2,
      page: 2,
      pageSize: 1,
      results: [
        {
          ctId: 'w30d6kzcdcfnjxvk94w58nfw',
          label: 'Total Population',
          componentType: 'XdCount',
          projectName: 'library',
          reuseRef: '@library:Total Population',
          status: 'published',
          successor: null,
          units: null,
        },
      ],
    });
  });

  it('refuse a status outside the CatalogStatus enum; an unknown type is an empty page', async () => {
    const res = await client.graphql('{ catalogComponents(status: gone) { count } }');
    expect(res.body.errors[0]).toMatchObject({
      message: expect.stringContaining('CatalogStatus'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect((await client.graphql('{ catalogComponents(status: retired) { count } }')).body.data.catalogComponents.count).toBe(0);
    expect((await client.graphql('{ catalogComponents(type: "XdNothing") { count } }')).body.data.catalogComponents.count).toBe(0);
  });

  it('list and show models with the tree as nested nodes and as JSON', async () => {
    const list = await client.graphql('{ catalogModels(search: "StatePop") { ctId identifier title projectName about } }');
    expect(list.body.data.catalogModels).toEqual([
      {
        ctId: DM,
        identifier: `dm-${DM}`,
        title: 'StatePopulation',
        projectName: 'library',
        about: `${app.services.settings.publicBaseUrl}/api/v1/catalog/dm/${DM}/`,
      },
    ]);
    const detail = await client.graphql(
      `query ($ctId: String!) {
        catalogModel(ctId: $ctId) {
          ctId published generated packageUrl artifacts { xsd skeleton }
          root { type ctId label children { type ctId label } }
          tree
        }
      }`,
      { ctId: DM },
    );
    expect(detail.body.errors).toBeUndefined();
    const model = detail.body.data.catalogModel;
    // An imported model's own package is stored at import (served byte for byte).
    expect(model).toMatchObject({
      ctId: DM,
      published: true,
      generated: true,
      packageUrl: `${app.services.settings.publicBaseUrl}/api/v1/catalog/dm/${DM}/package/`,
    });
    expect(model.artifacts.xsd).toBe(`${app.services.settings.publicBaseUrl}/api/v1/catalog/dm/${DM}/xsd/`);
    expect(model.root).toMatchObject({ type: 'Cluster', label: 'StatePopulation Data Cluster' });
    expect(model.root.children.map((c: { type: string; label: string }) => `${c.type} ${c.label}`)).toEqual([
      'XdString State',
      'XdCount Adult Population',
      'XdCount Total Population',
      'XdQuantity Adult Population Percentage',
    ]);
    expect((await client.get(`/api/v1/catalog/dm/${DM}/`)).body.components[0]).toEqual(model.tree);
  });

  it("hide another user's draft model as not found", async () => {
    const owner = await signedIn(app.url, app.services);
    const dm = await app.services.db.transaction(async (m) => {
      const c = await app.services.catalog.createComponent(m, { label: 'Private', dataType: 'XdString', status: 'draft', ownerId: owner.user.id });
      const root = await app.services.catalog.createCluster(m, {
        label: 'Private root',
        status: 'draft',
        ownerId: owner.user.id,
        children: [{ componentId: c.id }],
      });
      return (
        await app.services.catalog.createDataModel(m, { title: 'Private model', rootClusterId: root.id, published: false, ownerId: owner.user.id })
      ).ctId;
    });
    const query = `query ($ctId: String!) { catalogModel(ctId: $ctId) { title } }`;
    expect((await owner.client.graphql(query, { ctId: dm })).body.data.catalogModel.title).toBe('Private model');
    const hidden = await client.graphql(query, { ctId: dm });
    expect(hidden.body.errors[0].extensions.code).toBe('not_found');
    expect((await client.graphql('{ catalogIndex { components } }')).body.data.catalogIndex.components).toBe(4);
    expect((await owner.client.graphql('{ catalogIndex { components } }')).body.data.catalogIndex.components).toBe(5);
  });

  it('answer a read-only key, and an anonymous caller with the public entries', async () => {
    const key = await issueKey(client, { scopes: ['read'] });
    const viaKey = await client
      .withToken(key.key)
      .graphql('{ catalogIndex { dataTypes projects { name isLibrary components clusters dataModels } } }');
    expect(viaKey.body.data.catalogIndex.projects[0]).toEqual({ name: 'library', isLibrary: true, components: 4, clusters: 1, dataModels: 1 });
    expect(viaKey.body.data.catalogIndex.dataTypes).toContain('XdTemporal');
    const anonymous = await new HttpClient(app.url).graphql('{ catalogClusters { count } }');
    expect(anonymous.body.data.catalogClusters.count).toBe(1);
  });
});
