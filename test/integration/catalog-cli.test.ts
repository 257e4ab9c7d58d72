import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONTEXTUAL_LIBRARY } from '../../src/packages/contextual-library';
import { zipFiles } from '../../src/packages/zip-files';
import { readPackageFiles } from '../../src/packages/package-reader';
import { libraryComponent } from '../support/catalog-factories';
import { signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { runCli } from '../support/process';
import { startTestApp, type TestApp } from '../support/app';

const STATE_POPULATION = path.resolve(__dirname, '../../../shared/fixtures/sdc4/packages/StatePopulation');
const DM = 'its7j6bvrb9n2fxdcxmoemod';
const STATE = 'poq4ywx89zvijxwoqz8djrxj';
const IMPORTED = ['poq4ywx89zvijxwoqz8djrxj', 'ac79bjkqi8906qzjujpwtlsy', 'w30d6kzcdcfnjxvk94w58nfw', 'hzsoktbrtlhowsl71kywg81w'];
/** The library project also holds the contextual library (migration 0011). */
const LIBRARY_COUNT = IMPORTED.length + CONTEXTUAL_LIBRARY.length;

let app: TestApp;
let reader: HttpClient;
let env: Record<string, string>;
let workDir: string;
beforeAll(async () => {
  app = await startTestApp();
  env = { DATABASE_URL: app.databaseUrl };
  reader = (await signedIn(app.url, app.services)).client;
  workDir = await mkdtemp(path.join(tmpdir(), 'catalog-cli-'));
});
afterAll(async () => {
  await app.close();
  await rm(workDir, { recursive: true, force: true });
});

const component = async (ctId: string) => (await reader.get(`/api/v1/catalog/components/?search=${ctId}`)).body.results[0];

describe('catalog contextual install', () => {
  it('creates the missing contextual components, and a second run changes nothing', async () => {
    const audit = CONTEXTUAL_LIBRARY.find((e) => e.slot === 'audit')!.ctId;
    await app.services.db.query('DELETE FROM components WHERE ct_id = $1', [audit]);
    const first = await runCli(['catalog', 'contextual', 'install', '--json'], env);
    expect(first.code).toBe(0);
    expect(first.json.contextual.created).toEqual([audit]);
    const again = await runCli(['catalog', 'contextual', 'install', '--json'], env);
    expect(again.json.contextual).toEqual({ created: [], existing: CONTEXTUAL_LIBRARY.map((e) => e.ctId) });
  });
});

describe('catalog import', () => {
  it('registers a package directory once and reports what it created, then what already existed', async () => {
    const first = await runCli(['catalog', 'import', STATE_POPULATION], env);
    expect(first.code).toBe(0);
    expect(first.json.import).toMatchObject({
      dm_ct_id: DM,
      title: 'StatePopulation',
      xsd: `dm-${DM}.xsd`,
      data_model: 'created',
      clusters: { created: ['nk7ry8358vwjojwswli6ssrv'], existing: [] },
    });
    expect(first.json.import.components.created.sort()).toEqual([...IMPORTED].sort());
    expect((await reader.get('/api/v1/catalog/components/?project=library')).body.count).toBe(LIBRARY_COUNT);

    const again = await runCli(['catalog', 'import', STATE_POPULATION], env);
    expect(again.json.import).toMatchObject({ data_model: 'existing', components: { created: [] }, clusters: { created: [] } });
    expect((await reader.get('/api/v1/catalog/components/?project=library')).body.count).toBe(LIBRARY_COUNT);
  });

  it('reads a package ZIP as well', async () => {
    const zip = path.join(workDir, 'StatePopulation.zip');
    await writeFile(zip, await zipFiles(await readPackageFiles(STATE_POPULATION)));
    const res = await runCli(['catalog', 'import', zip], env);
    expect(res.code).toBe(0);
    expect(res.json.import.components.existing.sort()).toEqual([...IMPORTED].sort());
  });

  it('refuses a path that is no package, with one JSON error object', async () => {
    const res = await runCli(['catalog', 'import', workDir], env);
    expect(res.code).toBe(1);
    expect(res.json).toEqual({ error: expect.stringContaining('dm-<ct_id>.xsd'), error_type: 'invalid_package' });
  });
});

describe('catalog retire and publish', () => {
  it('retires a component with a published successor; listings show both', async () => {
    const successor = await libraryComponent(app.services, { label: 'US state or territory' });
    const res = await runCli(['catalog', 'retire', STATE, '--successor', successor.ctId], env);
    expect(res).toMatchObject({ code: 0, json: { kind: 'component', ct_id: STATE, status: 'retired', successor: successor.ctId } });
    expect(await component(STATE)).toMatchObject({ label: 'State', status: 'retired', successor: successor.ctId });
    expect((await reader.get('/api/v1/catalog/components/?status=retired')).body.results.map((c: { ct_id: string }) => c.ct_id)).toContain(STATE);
  });

  it('refuses a draft successor, a retired entry to publish and an unknown ct_id', async () => {
    const draft = await libraryComponent(app.services, { status: 'draft' });
    const target = await libraryComponent(app.services);
    const draftSuccessor = await runCli(['catalog', 'retire', target.ctId, '--successor', draft.ctId], env);
    expect(draftSuccessor).toMatchObject({ code: 1, json: { error_type: 'successor_not_published' } });
    expect((await component(target.ctId)).status).toBe('published');
    expect((await runCli(['catalog', 'publish', STATE], env)).json.error_type).toBe('retired');
    expect((await runCli(['catalog', 'retire', 'nosuchctid000000000000000'], env)).json.error_type).toBe('not_found');
  });

  it('publishes a draft so that every user sees it', async () => {
    const owner = await signedIn(app.url, app.services);
    const draft = await libraryComponent(app.services, { status: 'draft', ownerId: owner.user.id });
    expect(await component(draft.ctId)).toBeUndefined();
    const res = await runCli(['catalog', 'publish', draft.ctId], env);
    expect(res).toMatchObject({ code: 0, json: { kind: 'component', ct_id: draft.ctId, status: 'published', successor: null } });
    expect((await component(draft.ctId)).status).toBe('published');
  });

  it('publishes a draft model with its whole tree, bottom-up', async () => {
    const owner = await signedIn(app.url, app.services);
    const ownerId = owner.user.id;
    const dm = await app.services.db.transaction(async (m) => {
      const c = await app.services.catalog.createComponent(m, { label: 'Leaf', dataType: 'XdToken', status: 'draft', ownerId });
      const inner = await app.services.catalog.createCluster(m, { label: 'Inner', status: 'draft', ownerId, children: [{ componentId: c.id }] });
      const root = await app.services.catalog.createCluster(m, { label: 'Root', status: 'draft', ownerId, children: [{ clusterId: inner.id }] });
      return (await app.services.catalog.createDataModel(m, { title: 'Nested draft', rootClusterId: root.id, published: false, ownerId })).ctId;
    });
    expect((await reader.get(`/api/v1/catalog/dm/${dm}/`)).status).toBe(404);
    expect((await runCli(['catalog', 'publish', dm], env)).json).toMatchObject({ kind: 'data_model', ct_id: dm, status: 'published' });
    const detail = await reader.get(`/api/v1/catalog/dm/${dm}/`);
    expect(detail.status).toBe(200);
    const statuses = await app.services.db.query(
      `SELECT status FROM clusters WHERE label IN ('Inner', 'Root') AND owner_id = $1 UNION ALL SELECT status FROM components WHERE owner_id = $1`,
      [ownerId],
    );
    expect(statuses.map((r: { status: string }) => r.status)).toEqual(['published', 'published', 'published']);
    expect(detail.body.components[0].children[0].children[0]).toMatchObject({ type: 'XdToken', label: 'Leaf' });
  });
});
