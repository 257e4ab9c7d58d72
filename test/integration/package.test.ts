import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Parser } from 'n3';
import { packageFileNames } from '../../src/packages/model-package';
import { compileSchema } from '../../src/xml/schema';
import { scanXml } from '../../src/xml/safe-parse';
import { makeUser, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { zipEntries } from '../support/zip';
import { startTestApp, type TestApp } from '../support/app';
import type { Services } from '../../src/container';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const STATE_POPULATION = path.join(FIXTURES, 'sdc4/packages/StatePopulation');
const SDC4_XSD_URL = 'https://semanticdatacharter.com/ns/sdc4/sdc4.xsd';
const sdc4Xsd = readFileSync(path.join(FIXTURES, 'sdc4/reference/sdc4.xsd'), 'utf8');
const DM = 'its7j6bvrb9n2fxdcxmoemod';
const SDC4_NS = 'https://semanticdatacharter.com/ns/sdc4/';

/** The raw bytes of a download (HttpClient decodes bodies as text). */
async function bytes(client: HttpClient, url: string): Promise<Buffer> {
  const res = await fetch(`${app.url}${url}`, { headers: { cookie: `sessionid=${client.cookie('sessionid')}` } });
  return Buffer.from(await res.arrayBuffer());
}

/** A published model of a new user that reuses the imported State component beside a new one. */
async function ownModel(services: Services, ownerId: number, published: boolean) {
  const [state] = (await services.catalog.findComponentsByCtIds(['poq4ywx89zvijxwoqz8djrxj'])).values();
  const stateId = (await services.db.query('SELECT id FROM components WHERE ct_id = $1', [state.ctId]))[0].id;
  return services.db.transaction(async (m) => {
    const weight = await services.catalog.createComponent(m, { label: 'Body weight', dataType: 'XdQuantity', units: 'kg', status: 'draft', ownerId });
    const root = await services.catalog.createCluster(m, {
      label: 'Measures',
      status: 'draft',
      ownerId,
      children: [{ componentId: Number(stateId) }, { componentId: weight.id }],
    });
    const model = await services.catalog.createDataModel(m, {
      title: 'Weights by state',
      description: 'A test model',
      rootClusterId: root.id,
      published: false,
      ownerId,
    });
    if (published) await services.catalog.publishModelTree(m, model.ctId);
    return model.ctId;
  });
}

let app: TestApp;
let storageDir: string;
beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'catalog-packages-'));
  app = await startTestApp({ storageDir });
  await app.services.packages.importPackage(STATE_POPULATION);
});
afterAll(async () => {
  await app.close();
  await rm(storageDir, { recursive: true, force: true });
});

describe('artifact endpoints', () => {
  it('serve an XSD that compiles against the SDC4 reference model and declares dm-<ct_id>', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.get(`/api/v1/catalog/dm/${DM}/xsd/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="dm-${DM}.xsd"`);
    expect(res.text).toContain(`name="dm-${DM}"`);
    const compiled = await compileSchema({ name: `dm-${DM}.xsd`, content: res.text }, async (location) =>
      location === SDC4_XSD_URL ? sdc4Xsd : null,
    );
    expect(compiled.names).toEqual([`dm-${DM}.xsd`, 'sdc4.xsd']);
  });

  it('serve Turtle that parses and names the model, and HTML that documents it', async () => {
    const { client } = await signedIn(app.url, app.services);
    const ttl = await client.get(`/api/v1/catalog/dm/${DM}/ttl/`);
    expect(ttl.status).toBe(200);
    expect(ttl.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
    const quads = new Parser().parse(ttl.text);
    expect(quads.some((q) => q.subject.value.endsWith(`dm-${DM}`) || q.subject.value.endsWith(`mc-${DM}`))).toBe(true);
    const html = await client.get(`/api/v1/catalog/dm/${DM}/html/`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toMatch(/^<!DOCTYPE html>/i);
    expect(html.text).toContain('StatePopulation');
    expect(html.text).toContain('Adult Population Percentage');
  });

  it('serve a skeleton instance whose root is the model element, every component in it', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.get(`/api/v1/catalog/dm/${DM}/skeleton/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(scanXml(res.text)).toMatchObject({ namespace: SDC4_NS, localName: `dm-${DM}` });
    for (const ctId of ['poq4ywx89zvijxwoqz8djrxj', 'ac79bjkqi8906qzjujpwtlsy', 'w30d6kzcdcfnjxvk94w58nfw', 'hzsoktbrtlhowsl71kywg81w']) {
      expect(res.text).toContain(`ms-${ctId}`);
    }
  });

  it("answer 404 for another user's draft model and serve it to its owner", async () => {
    const owner = await signedIn(app.url, app.services);
    const other = await signedIn(app.url, app.services);
    const draft = await ownModel(app.services, owner.user.id, false);
    for (const kind of ['xsd', 'ttl', 'skeleton', 'html', 'package']) {
      const res = await other.client.get(`/api/v1/catalog/dm/${draft}/${kind}/`);
      expect([kind, res.status, res.body?.error_type]).toEqual([kind, 404, 'not_found']);
    }
    for (const kind of ['xsd', 'ttl', 'skeleton', 'html']) expect((await owner.client.get(`/api/v1/catalog/dm/${draft}/${kind}/`)).status).toBe(200);
  });
});

describe('the package ZIP', () => {
  it('is stored once under packages/, listed with every model file, and downloadable at package_url', async () => {
    const owner = await signedIn(app.url, app.services);
    const dm = await ownModel(app.services, owner.user.id, true);
    const before = await owner.client.get(`/api/v1/catalog/dm/${dm}/package/`);
    expect(before.status).toBe(404);
    expect(before.body.error_type).toBe('not_generated');

    const generated = await app.services.packages.generatePackage(dm);
    expect(generated.path).toBe(path.join(storageDir, 'packages', `dm-${dm}.zip`));
    expect(generated.packageUrl).toBe(`${app.services.settings.publicBaseUrl}/api/v1/catalog/dm/${dm}/package/`);
    const written = (await stat(generated.path)).mtimeMs;
    expect(await app.services.packages.isGenerated(dm)).toBe(generated.packageUrl);

    const detail = await owner.client.get(`/api/v1/catalog/dm/${dm}/`);
    expect(detail.body).toMatchObject({ generated: true, package_url: generated.packageUrl });

    const res = await owner.client.get(`/api/v1/catalog/dm/${dm}/package/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="dm-${dm}.zip"`);
    const zip = await bytes(owner.client, `/api/v1/catalog/dm/${dm}/package/`);
    expect(zip.equals(readFileSync(generated.path))).toBe(true);
    const entries = await zipEntries(zip);
    expect([...entries.keys()].sort()).toEqual(packageFileNames(dm).sort());

    for (const [kind, extension] of [
      ['xsd', 'xsd'],
      ['ttl', 'ttl'],
      ['html', 'html'],
    ]) {
      expect([kind, (await owner.client.get(`/api/v1/catalog/dm/${dm}/${kind}/`)).text]).toEqual([
        kind,
        entries.get(`dm-${dm}.${extension}`)!.toString(),
      ]);
    }
    const compiled = await compileSchema({ name: `dm-${dm}.xsd`, content: entries.get(`dm-${dm}.xsd`)!.toString() }, async (location) =>
      location === SDC4_XSD_URL ? sdc4Xsd : null,
    );
    expect(compiled.validate(entries.get(`dm-${dm}.xml`)!.toString())).toEqual([]);

    expect(await app.services.packages.generatePackage(dm)).toEqual(generated);
    expect((await stat(generated.path)).mtimeMs).toBe(written);
  });

  it('concurrent requests wait for one another and agree on one stored package', async () => {
    const owner = await makeUser(app.services);
    const dm = await ownModel(app.services, owner.id, true);
    const results = await Promise.all([1, 2, 3].map(() => app.services.packages.generatePackage(dm)));
    expect(new Set(results.map((r) => r.path)).size).toBe(1);
    const rows = await app.services.db.query('SELECT generated, package_path FROM data_models WHERE ct_id = $1', [dm]);
    expect(rows).toEqual([{ generated: true, package_path: path.join('packages', `dm-${dm}.zip`) }]);
  });

  it('is refused for a draft model', async () => {
    const owner = await makeUser(app.services);
    const dm = await ownModel(app.services, owner.id, false);
    await expect(app.services.packages.generatePackage(dm)).rejects.toMatchObject({ status: 409, code: 'not_published' });
  });
});

describe('the application ZIP', () => {
  it('is stored per profile and downloadable by the owner at app_url only', async () => {
    const owner = await signedIn(app.url, app.services);
    const other = await signedIn(app.url, app.services);
    const dm = await ownModel(app.services, owner.user.id, true);
    const appUrl = `/api/v1/catalog/dm/${dm}/app/?profile=enterprise`;
    expect((await owner.client.get(appUrl)).body.error_type).toBe('not_generated');

    const generated = await app.services.packages.generateApp(dm, 'enterprise');
    expect(generated).toEqual({
      appName: 'Weights by state',
      appUrl: `${app.services.settings.publicBaseUrl}${appUrl}`,
      path: path.join(storageDir, 'apps', `dm-${dm}-app-enterprise.zip`),
    });
    const res = await owner.client.get(appUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="dm-${dm}-app-enterprise.zip"`);
    const entries = await zipEntries(await bytes(owner.client, appUrl));
    expect([...entries.keys()]).toEqual(expect.arrayContaining(['weights-by-state/docker-compose.yml', `weights-by-state/dmlib/dm-${dm}.xsd`]));

    expect((await owner.client.get(`/api/v1/catalog/dm/${dm}/app/?profile=os`)).status).toBe(404);
    expect((await owner.client.get(`/api/v1/catalog/dm/${dm}/app/?profile=cloud`)).status).toBe(400);
    expect((await other.client.get(appUrl)).status).toBe(403);
  });
});

describe('package generation in the CPU pool', () => {
  it('fails past PACKAGE_TASK_BUDGET_MS and stores nothing', async () => {
    const tight = await startTestApp({ storageDir: await mkdtemp(path.join(tmpdir(), 'tight-packages-')), packageTaskBudgetMs: 1 });
    try {
      await tight.services.packages.importPackage(STATE_POPULATION);
      const owner = await makeUser(tight.services);
      const dm = await ownModel(tight.services, owner.id, true);
      await expect(tight.services.packages.generatePackage(dm)).rejects.toMatchObject({ name: 'CpuBudgetExceeded', budgetMs: 1 });
      expect(await tight.services.packages.isGenerated(dm)).toBeNull();
    } finally {
      await tight.close();
    }
  });
});
