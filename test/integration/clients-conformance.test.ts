import { libraryComponent } from '../support/catalog-factories';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

/** Gaps found by walking clients.md row by row, each replayed as the client makes the call and reads the answer. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { workers: false });
});
afterAll(() => app.close());

async function modeler() {
  const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
  const tool = client.withToken((await issueKey(client)).key);
  const project = (await tool.get('/api/v1/auth/modeler/')).body.project_ct_id as string;
  return { tool, project };
}

async function created(tool: HttpClient, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await tool.post(path, body);
  expect([path, res.status]).toEqual([path, 201]);
  return res.body.ct_id as string;
}

/** Every field the library search of SDCBench and the toolkit read from a `/dmgen/components/` row. */
const studioRow = (fields: Record<string, unknown>) => ({
  ct_id: expect.any(String),
  label: expect.any(String),
  description: expect.any(String),
  type: expect.any(String),
  component_type: expect.any(String),
  published: expect.any(Boolean),
  public: expect.any(Boolean),
  project_name: expect.any(String),
  project_ct_id: expect.any(String),
  units: null,
  created: expect.any(String),
  updated: expect.any(String),
  ...fields,
});

describe('GET /dmgen/components/ lists clusters and Units beside components', () => {
  let tool: HttpClient;
  let project: string;
  let units: string;
  let leaf: string;
  let cluster: string;
  beforeAll(async () => {
    ({ tool, project } = await modeler());
    units = await created(tool, '/api/v1/dmgen/units/', { project, label: 'mmHg', description: 'Pressure', public: false });
    leaf = await created(tool, '/api/v1/dmgen/xd-strings/', { project, label: 'Cuff site', description: 'Arm or leg', public: false });
    cluster = await created(tool, '/api/v1/dmgen/clusters/', {
      project,
      label: 'Blood pressure',
      description: 'A reading',
      public: false,
      xdstring: [leaf],
      clusters: [],
    });
  });

  it('answers each kind with its lowercase type and the fields clients read', async () => {
    const res = await tool.get(`/api/v1/dmgen/components/?search=&page_size=25&project=${project}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, next: null, previous: null });
    const common = { published: false, public: false, project_ct_id: project };
    expect(res.body.results).toEqual([
      studioRow({ ...common, ct_id: cluster, label: 'Blood pressure', description: 'A reading', type: 'cluster', component_type: 'Cluster' }),
      studioRow({ ...common, ct_id: leaf, label: 'Cuff site', description: 'Arm or leg', type: 'xdstring', component_type: 'XdString' }),
      studioRow({ ...common, ct_id: units, label: 'mmHg', description: 'Pressure', type: 'units', component_type: 'Units' }),
    ]);
  });

  it('filters by type=units and type=cluster, in any case', async () => {
    const only = async (type: string) =>
      (await tool.get(`/api/v1/dmgen/components/?project=${project}&type=${type}`)).body.results.map((r: { ct_id: string }) => r.ct_id);
    expect(await only('units')).toEqual([units]);
    expect(await only('ClusterType')).toEqual([cluster]);
    expect(await only('xdstring')).toEqual([leaf]);
    const catalog = await tool.get(`/api/v1/catalog/components/?project=${project}&type=units`);
    expect(catalog.body.count).toBe(0);
  });

  it('shows a published Units of a public project to another modeler, never a draft', async () => {
    const other = await modeler();
    const search = async () => (await other.tool.get(`/api/v1/dmgen/components/?status=published&search=mmHg&page_size=10&project=${project}`)).body;
    expect(await search()).toMatchObject({ count: 0, results: [] });
    expect((await tool.post(`/api/v1/dmgen/units/${units}/publish/`, {})).status).toBe(200);
    expect((await search()).results).toEqual([
      studioRow({ ct_id: units, description: 'Pressure', type: 'units', published: true, public: true, project_ct_id: project }),
    ]);
  });
});

describe('GET /dmgen/components/ names types as the studio does', () => {
  it('calls XdInterval `interval` (SDCBench badges results by it) and filters by that name', async () => {
    const label = `Reference interval ${Date.now()}`;
    const interval = await libraryComponent(app.services, { label, dataType: 'XdInterval' });
    const { tool } = await modeler();
    const rows = async (type: string) =>
      (await tool.get(`/api/v1/dmgen/components/?status=published&search=${encodeURIComponent(label)}&type=${type}`)).body.results;
    expect(await rows('')).toEqual([expect.objectContaining({ ct_id: interval.ctId, type: 'interval', component_type: 'XdInterval' })]);
    for (const type of ['interval', 'Interval', 'xdinterval', 'XdIntervalType']) expect([type, (await rows(type)).length]).toEqual([type, 1]);
    expect(await rows('xdstring')).toEqual([]);
  });
});
