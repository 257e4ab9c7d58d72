import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Parser, type Quad } from 'n3';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { startAppUnderTest, STATE_POPULATION, SP_CT_ID, type AppUnderTest } from './app-helpers';

/** The DCAT 3 catalog of the public library (`/api/v1/catalog/dcat.ttl` and `.jsonld`): it parses, lists every
 * public model (as the anonymous model list has them) and no draft or private model, carries each model's
 * distributions with the published schema's sha256, and passes DCAT 3 shapes (test/support/shapes) checked by a
 * maintained SHACL engine. */

const DCAT = 'http://www.w3.org/ns/dcat#';
const DCTERMS = 'http://purl.org/dc/terms/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SPDX = 'http://spdx.org/rdf/terms#';
const SHAPES = readFileSync(path.join(__dirname, '../support/shapes/dcat3-catalog.ttl'), 'utf8');

let app: AppUnderTest;
let published: string;
let draft: string;
let hidden: string;
beforeAll(async () => {
  app = await startAppUnderTest();
  await app.services.packages.importPackage(STATE_POPULATION);
  const owner = await modeler();
  published = await model(owner.tool, owner.project, 'Published survey', true);
  draft = await model(owner.tool, owner.project, 'Draft survey', false);
  const other = await modeler();
  await app.services.db.query('UPDATE projects SET is_public = false WHERE owner_id = $1', [other.userId]);
  hidden = await model(other.tool, other.project, 'Private survey', true);
});
afterAll(async () => {
  await app.close();
});

async function modeler() {
  const { user, client } = await signedIn(app.url, app.services, { credits: 10_000 });
  const tool = client.withToken((await issueKey(client)).key);
  return { userId: user.id, tool, project: (await tool.get('/api/v1/auth/modeler/')).body.project_ct_id as string };
}

async function model(tool: HttpClient, project: string, title: string, publish: boolean): Promise<string> {
  const leaf = await tool.post('/api/v1/dmgen/xd-strings/', { project, label: `${title} answer`, public: false });
  const root = await tool.post('/api/v1/dmgen/clusters/', { project, label: `${title} data`, xdstring: [leaf.body.ct_id], public: false });
  const dm = await tool.post('/api/v1/dmgen/dms/', { project, title, data: root.body.ct_id, dc_subject: 'surveys; tests', rights: 'CC-BY-4.0' });
  expect(dm.status).toBe(201);
  if (publish) expect((await tool.post(`/api/v1/dmgen/dms/${dm.body.ct_id}/publish/`)).status).toBe(200);
  return dm.body.ct_id;
}

async function conformance(quads: Quad[]) {
  const { default: SHACLValidator } = await import('rdf-validate-shacl');
  type Report = { conforms: boolean; results: Array<{ focusNode: { value: string } | null; path: { value: string } | null }> };
  type Engine = { validate(data: unknown): Promise<Report>; factory: { dataset(quads: Quad[]): unknown } };
  const engine = new (SHACLValidator as unknown as new (shapes: unknown) => Engine)(new Parser({ baseIRI: 'urn:test:dcat3' }).parse(SHAPES));
  return engine.validate(engine.factory.dataset(quads));
}

const objects = (quads: Quad[], subject: string, predicate: string) =>
  quads.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object.value);

describe('the DCAT 3 catalog', () => {
  it('parses as Turtle, lists every public model and no draft or private one, and passes the DCAT 3 shapes', async () => {
    const res = await fetch(`${app.url}/api/v1/catalog/dcat.ttl`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/turtle/);
    const text = await res.text();
    const quads = new Parser({ format: 'Turtle' }).parse(text);
    const datasets = quads.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === `${DCAT}Dataset`).map((q) => q.subject.value);
    const identifiers = datasets.flatMap((d) => objects(quads, d, `${DCTERMS}identifier`));
    const listed = (await (await fetch(`${app.url}/api/v1/catalog/dms/`)).json()) as Array<{ ct_id: string }>;
    expect(new Set(identifiers)).toEqual(new Set(listed.map((m) => m.ct_id)));
    expect(identifiers).toEqual(expect.arrayContaining([SP_CT_ID, published]));
    expect(text).not.toContain(draft);
    expect(text).not.toContain(hidden);

    const report = await conformance(quads);
    expect(report.results.map((r) => [r.focusNode?.value, r.path?.value])).toEqual([]);
    expect(report.conforms).toBe(true);
    // The shapes bite: a dataset without its title, and a checksum that is not sha256 hex, are refused.
    const broken = quads.filter((q) => !(q.subject.value === datasets[0] && q.predicate.value === `${DCTERMS}title`));
    expect((await conformance(broken)).conforms).toBe(false);
    const badChecksum = new Parser({ format: 'Turtle' }).parse(text.replace(/"[0-9a-f]{64}"\^\^xsd:hexBinary/, '"abc"^^xsd:hexBinary'));
    expect((await conformance(badChecksum)).conforms).toBe(false);
  });

  it('gives each model its distributions; the /dmlib schema carries the sha256 the schema is served with', async () => {
    const quads = new Parser({ format: 'Turtle' }).parse(await (await fetch(`${app.url}/api/v1/catalog/dcat.ttl`)).text());
    const dataset = `${app.url}/api/v1/catalog/dm/${SP_CT_ID}/`;
    const urls = objects(quads, dataset, `${DCAT}distribution`).flatMap((d) => objects(quads, d, `${DCAT}downloadURL`));
    expect(urls.sort()).toEqual(
      [
        `${app.url}/api/v1/catalog/dm/${SP_CT_ID}/xsd/`,
        `${app.url}/api/v1/catalog/dm/${SP_CT_ID}/jsonld/`,
        `${app.url}/api/v1/catalog/dm/${SP_CT_ID}/shacl/`,
        `${app.url}/api/v1/catalog/dms/${SP_CT_ID}/artifacts/zip/`,
        `${app.url}/dmlib/dm-${SP_CT_ID}.xsd`,
      ].sort(),
    );
    for (const url of urls) expect([url, (await fetch(url)).status]).toEqual([url, 200]);
    const dmlib = objects(quads, dataset, `${DCAT}distribution`).find((d) => d.endsWith('#dmlib'))!;
    const [checksum] = objects(quads, dmlib, `${SPDX}checksum`);
    const schema = Buffer.from(await (await fetch(`${app.url}/dmlib/dm-${SP_CT_ID}.xsd`)).arrayBuffer());
    expect(objects(quads, checksum, `${SPDX}checksumValue`)).toEqual([createHash('sha256').update(schema).digest('hex')]);
    expect(objects(quads, dmlib, `${DCAT}byteSize`)).toEqual([String(schema.length)]);
    expect(objects(quads, `${app.url}/api/v1/catalog/dm/${published}/`, `${DCAT}keyword`).sort()).toEqual(['surveys', 'tests']);
  });

  it('serves the same datasets as JSON-LD', async () => {
    const res = await fetch(`${app.url}/api/v1/catalog/dcat.jsonld`);
    expect(res.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    const doc = (await res.json()) as { '@graph': Array<{ '@id': string; '@type'?: string[] }> };
    const datasets = doc['@graph'].filter((n) => n['@type']?.includes(`${DCAT}Dataset`)).map((n) => n['@id']);
    expect(datasets.sort()).toEqual([`${app.url}/api/v1/catalog/dm/${SP_CT_ID}/`, `${app.url}/api/v1/catalog/dm/${published}/`].sort());
  });
});
