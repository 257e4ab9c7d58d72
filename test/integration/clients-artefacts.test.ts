import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { CONTEXTUAL_LIBRARY, CONTEXTUAL_SLOTS } from '../../src/packages/contextual-library';
import { compileSchema, type CompiledSchema } from '../../src/xml/schema';
import { libraryComponent } from '../support/catalog-factories';
import { signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { zipEntries } from '../support/zip';
import { startTestApp, type TestApp } from '../support/app';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const STATE_POPULATION = path.join(FIXTURES, 'sdc4/packages/StatePopulation');
const SP = 'its7j6bvrb9n2fxdcxmoemod';
const SP_XSD = readFileSync(path.join(STATE_POPULATION, `dm-${SP}.xsd`));
const SP_XML = readFileSync(path.join(STATE_POPULATION, `dm-${SP}.xml`), 'utf8');
const SDC4_XSD_URL = 'https://semanticdatacharter.com/ns/sdc4/sdc4.xsd';
const sdc4Xsd = readFileSync(path.join(FIXTURES, 'sdc4/reference/sdc4.xsd'), 'utf8');
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A model schema compiled against the real sdc4.xsd (from the fixtures, never the network). */
const compile = (name: string, content: string): Promise<CompiledSchema> =>
  compileSchema({ name, content }, async (location) => (location === SDC4_XSD_URL ? sdc4Xsd : null));

/** A value of each datatype the field mapping names, unlike the example instance's. */
const FILL: Record<string, string> = {
  'xsd:string': 'filled in',
  'xsd:integer': '7',
  'xsd:decimal': '3.25',
  'xsd:dateTime': '2024-02-29T10:11:12Z',
  'xsd:date': '2024-02-29',
  'xsd:anyURI': 'https://example.org/filled',
  'xsd:boolean': 'true',
};

interface SkeletonJson {
  skeleton_xml: string;
  field_mapping: {
    ct_id: string;
    fields: Array<{ placeholder: string; ct_id: string; element_name: string; type: string; datatype: string; label: string; required: boolean }>;
  };
}

function fill(skeleton: SkeletonJson): string {
  let xml = skeleton.skeleton_xml;
  for (const field of skeleton.field_mapping.fields) xml = xml.split(field.placeholder).join(FILL[field.datatype]);
  return xml;
}

let app: TestApp;
let storageDir: string;
let anonymous: HttpClient;
let assembled: string;
beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'clients-artefacts-'));
  app = await startTestApp({ storageDir, schemaCatalogDir: path.join(FIXTURES, 'sdc4/reference') });
  anonymous = new HttpClient(app.url);
  await app.services.packages.importPackage(STATE_POPULATION);
  const { client } = await signedIn(app.url, app.services, { credits: 5000 });
  const weight = await libraryComponent(app.services, { label: 'Body weight', dataType: 'XdQuantity', units: 'kg' });
  const when = await libraryComponent(app.services, { label: 'Measured on', dataType: 'XdTemporal' });
  const contextual = Object.fromEntries(CONTEXTUAL_LIBRARY.map((e) => [e.slot, { ct_id: e.ctId }]));
  const res = await client.post('/api/v1/dmgen/assemble/', {
    title: 'Weighing with context',
    data: { label: 'Weighing', components: [{ ct_id: weight.ctId }, { ct_id: when.ctId }] },
    contextual,
    generate: false,
  });
  expect(res.status).toBe(200);
  assembled = res.body.ct_id;
});
afterAll(async () => {
  await app.close();
  await rm(storageDir, { recursive: true, force: true });
});

describe('the contextual library', () => {
  it('holds a published library component for each of the nine slots, and installing again creates nothing', async () => {
    const library = await app.services.contextual.library();
    expect(library.map((c) => c.slot)).toEqual([...CONTEXTUAL_SLOTS]);
    const [project] = await app.services.db.query(
      `SELECT DISTINCT p.is_library FROM components c JOIN projects p ON p.id = c.project_id WHERE c.contextual_slot IS NOT NULL`,
    );
    expect(project).toEqual({ is_library: true });
    expect(await app.services.contextual.install()).toEqual({ created: [], existing: CONTEXTUAL_LIBRARY.map((e) => e.ctId) });
    const party = CONTEXTUAL_LIBRARY.find((e) => e.slot === 'party')!.ctId;
    await app.services.db.query('DELETE FROM components WHERE ct_id = $1', [party]);
    expect((await app.services.contextual.install()).created).toEqual([party]);
    expect((await app.services.contextual.library()).map((c) => c.slot)).toEqual([...CONTEXTUAL_SLOTS]);
  });

  it('a model assembled with all nine contextual slots validates, with its generated instance, against the real sdc4.xsd', async () => {
    const { client } = await signedIn(app.url, app.services);
    const xsd = await client.get(`/api/v1/catalog/dm/${assembled}/xsd/`);
    const xml = await anonymous.get(`/api/v1/catalog/dm/${assembled}/xml/`);
    expect([xsd.status, xml.status]).toEqual([200, 200]);
    for (const e of CONTEXTUAL_LIBRARY) expect(xsd.text).toContain(`mc-${e.ctId}`);
    for (const element of ['<subject>', '<provider>', '<protocol>', '<workflow>', '<acs>', '<attestation>']) expect(xml.text).toContain(element);
    expect((await compile(`dm-${assembled}.xsd`, xsd.text)).validate(xml.text)).toEqual([]);
  });
});

describe('the package round trip through Interface B', () => {
  it('a generated application accepts the contextual model’s schema and its example instance as valid', async () => {
    const zip = await fetch(`${app.url}/api/v1/catalog/dms/${assembled}/artifacts/zip/`);
    const files = await zipEntries(Buffer.from(await zip.arrayBuffer()));
    const { plaintext } = await app.services.app.keys.create({ organization: 'Clinic', contactEmail: 'it@clinic.example' });
    const upload = new FormData();
    upload.append('files', new Blob([new Uint8Array(files.get(`dm-${assembled}.xsd`)!)]), `dm-${assembled}.xsd`);
    const stored = await fetch(`${app.url}/api/v1/upload/schema/`, { method: 'POST', headers: { 'x-api-key': plaintext }, body: upload });
    expect(stored.status).toBe(201);
    const validated = await fetch(`${app.url}/api/v1/validate/xml/`, {
      method: 'POST',
      headers: { 'x-api-key': plaintext, 'content-type': 'application/json' },
      body: JSON.stringify({ xml_content: files.get(`dm-${assembled}.xml`)!.toString('utf8'), sync_triplestore: false }),
    });
    expect(validated.status).toBe(201);
    expect(((await validated.json()) as { data: unknown }).data).toMatchObject({
      dm_ct_id: assembled,
      validation_status: 'valid',
      validation_errors: null,
    });
  });
});

describe('skeleton and field mapping', () => {
  it.each([
    ['the assembled model', () => assembled],
    ['the imported StatePopulation', () => SP],
  ])('%s: filled by datatype, the skeleton validates against the model schema the service serves', async (_name, ctIdOf) => {
    const ctId = ctIdOf();
    const text = await anonymous.get(`/api/v1/catalog/dm/${ctId}/skeleton/`);
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(text.text).toContain('__PLACEHOLDER_instance_id__');
    const json = await anonymous.get(`/api/v1/catalog/dm/${ctId}/skeleton/`, { Accept: 'application/json' });
    expect(json.status).toBe(200);
    const skeleton = json.body as SkeletonJson;
    expect(skeleton.skeleton_xml).toBe(text.text);
    expect(skeleton.field_mapping.ct_id).toBe(ctId);
    for (const field of skeleton.field_mapping.fields) {
      expect(field).toEqual({
        placeholder: expect.stringMatching(/^__PLACEHOLDER_.+__$/),
        ct_id: expect.any(String),
        element_name: expect.any(String),
        type: expect.any(String),
        datatype: expect.any(String),
        label: expect.any(String),
        required: expect.any(Boolean),
      });
      expect(skeleton.skeleton_xml).toContain(field.placeholder);
    }
    const filled = fill(skeleton);
    expect(filled).not.toContain('__PLACEHOLDER_');
    const xsd = await anonymous.get(`/dmlib/dm-${ctId}.xsd`);
    expect((await compile(`dm-${ctId}.xsd`, xsd.text)).validate(filled)).toEqual([]);
  });

  it('names every StatePopulation component by its own ct_id', async () => {
    const json = await anonymous.get(`/api/v1/catalog/dm/${SP}/skeleton/`, { Accept: 'application/json' });
    const placeholders = (json.body as SkeletonJson).field_mapping.fields.map((f) => f.placeholder);
    for (const ctId of ['poq4ywx89zvijxwoqz8djrxj', 'ac79bjkqi8906qzjujpwtlsy', 'w30d6kzcdcfnjxvk94w58nfw', 'hzsoktbrtlhowsl71kywg81w']) {
      expect(placeholders).toContain(`__PLACEHOLDER_${ctId}__`);
    }
  });
});

describe('an imported model keeps its own files', () => {
  it('serves the package’s own XSD byte for byte, and the package’s own XML validates against it', async () => {
    const { client } = await signedIn(app.url, app.services);
    const xsd = await client.get(`/api/v1/catalog/dm/${SP}/xsd/`);
    expect(Buffer.from(xsd.text, 'utf8').equals(SP_XSD)).toBe(true);
    expect((await compile(`dm-${SP}.xsd`, xsd.text)).validate(SP_XML)).toEqual([]);
    const xml = await anonymous.get(`/api/v1/catalog/dm/${SP}/xml/`);
    expect(xml.text).toBe(SP_XML);
  });

  it('answers the package ZIP anonymously with every file of the package, byte for byte', async () => {
    const res = await fetch(`${app.url}/api/v1/catalog/dms/${SP}/artifacts/zip/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const entries = await zipEntries(Buffer.from(await res.arrayBuffer()));
    expect(entries.get(`dm-${SP}.xsd`)?.equals(SP_XSD)).toBe(true);
    expect(entries.size).toBe(8);
  });

  it('serves every artefact its detail advertises, anonymously, and sha1 names the ZIP as sha1sum does', async () => {
    const detail = await anonymous.get(`/api/v1/catalog/dm/${SP}/`);
    const artifacts = detail.body.artifacts as Record<string, string>;
    expect(Object.keys(artifacts).sort()).toEqual(['gql', 'html', 'json', 'jsonld', 'sha1', 'shacl', 'skeleton', 'ttl', 'xml', 'xsd', 'zip']);
    for (const [key, url] of Object.entries(artifacts)) expect([key, (await fetch(url)).status]).toEqual([key, 200]);
    const zip = Buffer.from(await (await fetch(artifacts.zip)).arrayBuffer());
    const sha1 = await (await fetch(artifacts.sha1)).text();
    expect(sha1).toBe(`${createHash('sha1').update(zip).digest('hex')}  dm-${SP}.zip\n`);
  });
});

describe('published schema hosting', () => {
  it('serves the current schema with a strong ETag and caching headers, and 304 on If-None-Match', async () => {
    const res = await fetch(`${app.url}/dmlib/dm-${SP}.xsd`);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(SP_XSD)).toBe(true);
    expect(res.headers.get('etag')).toBe(`"${sha256(SP_XSD)}"`);
    expect(res.headers.get('cache-control')).toMatch(/public/);
    const again = await fetch(`${app.url}/dmlib/dm-${SP}.xsd`, { headers: { 'If-None-Match': `"${sha256(SP_XSD)}"` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('lists the versions; a republished schema archives the old one, which stays served unchanged', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'republish-'));
    await cp(STATE_POPULATION, dir, { recursive: true });
    const changed = Buffer.concat([SP_XSD, Buffer.from('<!-- republished -->\n')]);
    await writeFile(path.join(dir, `dm-${SP}.xsd`), changed);
    await app.services.packages.importPackage(dir);
    await rm(dir, { recursive: true, force: true });

    const versions = await anonymous.get(`/dmlib/dm-${SP}.versions.json`);
    expect(versions.status).toBe(200);
    expect(versions.body).toMatchObject({ current_sha256: sha256(changed), schema_url: `${app.url}/dmlib/dm-${SP}.xsd` });
    expect(versions.body.versions).toEqual([
      { sha256: sha256(changed), size: changed.length, archived_at: null, current: true, url: expect.stringContaining(sha256(changed)) },
      { sha256: sha256(SP_XSD), size: SP_XSD.length, archived_at: expect.any(String), current: false, url: expect.stringContaining(sha256(SP_XSD)) },
    ]);
    const old = await fetch(versions.body.versions[1].url);
    expect(Buffer.from(await old.arrayBuffer()).equals(SP_XSD)).toBe(true);
    expect(old.headers.get('cache-control')).toMatch(/immutable/);
    const current = await fetch(`${app.url}/dmlib/dm-${SP}.xsd`);
    expect(current.headers.get('etag')).toBe(`"${sha256(changed)}"`);
  });

  it('answers 404 for an unknown model and for a name that is no schema', async () => {
    expect((await anonymous.get('/dmlib/dm-nosuchmodel.xsd')).status).toBe(404);
    expect((await anonymous.get('/dmlib/readme.txt')).status).toBe(404);
  });
});

describe('the gql artefact', () => {
  it('is GraphQL SDL of the instance shape, in the package and served alone', async () => {
    const res = await anonymous.get(`/api/v1/catalog/dm/${assembled}/gql/`);
    expect(res.status).toBe(200);
    const schema = buildSchema(res.text);
    expect(schema.getType(`DM_${assembled}`)).toBeDefined();
    const zip = await fetch(`${app.url}/api/v1/catalog/dms/${assembled}/artifacts/zip/`);
    const entries = await zipEntries(Buffer.from(await zip.arrayBuffer()));
    expect(entries.get(`dm-${assembled}.graphql`)?.toString()).toBe(res.text);
  });
});

describe('GraphQL', () => {
  it('answers the skeleton, the schema versions and the contextual library without credentials', async () => {
    const res = await anonymous.graphql(
      `query ($ct: String!) {
        modelSkeleton(ctId: $ct) { xml fieldMapping { ctId fields { placeholder ctId elementName type datatype label required } } }
        schemaVersions(ctId: $ct) { currentSha256 schemaUrl versions { sha256 current } }
        contextualLibrary { slot ctId componentType }
      }`,
      { ct: SP },
    );
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data as {
      modelSkeleton: { xml: string; fieldMapping: { ctId: string; fields: Array<{ placeholder: string }> } };
      schemaVersions: { currentSha256: string; versions: Array<{ current: boolean }> };
      contextualLibrary: Array<{ slot: string }>;
    };
    expect(data.modelSkeleton.fieldMapping.ctId).toBe(SP);
    expect(data.modelSkeleton.fieldMapping.fields.map((f) => f.placeholder)).toContain('__PLACEHOLDER_poq4ywx89zvijxwoqz8djrxj__');
    expect(data.schemaVersions.versions.filter((v) => v.current)).toHaveLength(1);
    expect(data.contextualLibrary.map((c) => c.slot)).toEqual([...CONTEXTUAL_SLOTS]);
  });
});
