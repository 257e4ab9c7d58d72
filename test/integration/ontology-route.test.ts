import type { Quad } from 'n3';
import { parseRdfXml } from '../support/rdf-xml';
import { issueKey, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

const ONTOLOGY = '/api/v1/catalog/ontologies/sdc4/';
const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const OWL_CLASS = 'http://www.w3.org/2002/07/owl#Class';
const SUBCLASS_OF = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';
const GDC = 'http://purl.obolibrary.org/obo/BFO_0000031';
const MAPPED = ['CMC', 'InvlType', 'InvlUnits', 'MagnitudeStatus'].map((local) => `${SDC4}${local}`);

const sdc4Classes = (quads: Quad[]) =>
  quads.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === OWL_CLASS && q.subject.value.startsWith(SDC4)).map((q) => q.subject.value);
const underGdc = (quads: Quad[]) =>
  quads
    .filter((q) => q.predicate.value === SUBCLASS_OF && q.object.value === GDC)
    .map((q) => q.subject.value)
    .sort();

let app: TestApp;
let reader: HttpClient;
beforeAll(async () => {
  app = await startTestApp();
  reader = (await signedIn(app.url, app.services)).client;
});
afterAll(() => app.close());

describe('GET /api/v1/catalog/ontologies/sdc4/', () => {
  it('serves the core ontology as RDF/XML: 53 sdc4 classes and no BFO axiom', async () => {
    const res = await reader.get(ONTOLOGY);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/rdf\+xml\b/);
    const quads = await parseRdfXml(res.text);
    expect(new Set(sdc4Classes(quads)).size).toBe(53);
    expect(underGdc(quads)).toEqual([]);
  });

  it('with ?include=bfo adds exactly the four mapping axioms', async () => {
    const core = await parseRdfXml((await reader.get(ONTOLOGY)).text);
    const res = await reader.get(`${ONTOLOGY}?include=bfo`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/rdf\+xml\b/);
    const quads = await parseRdfXml(res.text);
    expect(new Set(sdc4Classes(quads)).size).toBe(53);
    expect(underGdc(quads)).toEqual(MAPPED);
    const triple = (q: Quad) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`;
    const coreTriples = new Set(core.map(triple));
    expect(quads).toHaveLength(core.length + 5);
    const ground = (q: Quad) => q.subject.termType !== 'BlankNode' && q.object.termType !== 'BlankNode';
    const added = quads.filter((q) => ground(q) && !coreTriples.has(triple(q)));
    expect(added.map(triple).sort()).toEqual([`${GDC} ${RDF_TYPE} ${OWL_CLASS}`, ...MAPPED.map((iri) => `${iri} ${SUBCLASS_OF} ${GDC}`)]);
  });

  it('answers an API key with the read scope too', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = await issueKey(client, { scopes: ['read'] });
    const res = await new HttpClient(app.url).withToken(key.key).get(ONTOLOGY);
    expect(res.status).toBe(200);
    expect(new Set(sdc4Classes(await parseRdfXml(res.text))).size).toBe(53);
  });

  it('refuses an unknown include value with 400', async () => {
    for (const query of ['include=owl', 'include=', 'include=bfo&include=bfo']) {
      const res = await reader.get(`${ONTOLOGY}?${query}`);
      expect({ query, status: res.status, error_type: res.body?.error_type }).toEqual({ query, status: 400, error_type: 'invalid_request' });
    }
  });

  it('answers without credentials, as the studio clients call it (issue 16)', async () => {
    const res = await new HttpClient(app.url).get(`${ONTOLOGY}?include=bfo`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/rdf\+xml/);
  });
});
