import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OFF_LOOP_JSON_BYTES } from '../../src/http/body';
import { AR_CT_ID, ARREST_REPORT, form, SP_CT_ID, startAppUnderTest, STATE_POPULATION, type AppUnderTest } from './app-helpers';

const SP_XSD = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`));
const SP_XML = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`), 'utf8');
const SP_NA = SP_XML.replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>');
const VALIDATE = '/api/v1/validate/xml/';
const JSON_TYPE = { 'content-type': 'application/json' };

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
  const uploaded = await app.call('POST', '/api/v1/upload/schema/', {
    body: form([
      { field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: SP_XSD },
      { field: 'files', name: `dm-${AR_CT_ID}.xsd`, content: readFileSync(path.join(ARREST_REPORT, `dm-${AR_CT_ID}.xsd`)) },
    ]),
  });
  expect(uploaded.body.data.stored_files).toHaveLength(2);
});
afterAll(() => app?.close());

const validateJson = (body: Record<string, unknown>, query = '') =>
  app.call('POST', `${VALIDATE}${query}`, { body: JSON.stringify(body), headers: JSON_TYPE });
const instanceCount = async () => Number((await app.services.db.query('SELECT count(*)::int AS n FROM app_instances'))[0].n);

describe('the fixtures', () => {
  it("StatePopulation's example is valid, with a generated i- id and nothing corrected", async () => {
    const res = await validateJson({ xml_content: SP_XML });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        instance_id: expect.stringMatching(/^i-[a-z0-9]{24}$/),
        dm_ct_id: SP_CT_ID,
        dm_label: 'StatePopulation',
        validation_status: 'valid',
        storage_type: 'generic',
        auto_corrected_fields: [],
        validation_errors: null,
        rdf_sync_status: 'disabled',
      },
    });
  });

  it('the same with N/A in xdcount-value is valid_with_ev: sdc4:NI inserted, line-25 corrected, an i-ev- id', async () => {
    const res = await validateJson({ xml_content: SP_NA });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      instance_id: expect.stringMatching(/^i-ev-[a-z0-9]{24}$/),
      validation_status: 'valid_with_ev',
      auto_corrected_fields: ['line-25'],
    });
    const [row] = await app.services.db.query('SELECT original_xml, corrected_xml, corrections FROM app_instances WHERE instance_id = $1', [
      res.body.data.instance_id,
    ]);
    expect(row.original_xml).toBe(SP_NA);
    expect(row.corrected_xml).toContain('<sdc4:NI><ev-name>No Information</ev-name></sdc4:NI>');
    expect(row.corrected_xml.split('\n').length).toBe(SP_NA.split('\n').length);
    expect(row.corrections).toEqual([expect.objectContaining({ line: 25, ev: 'EV_NULL', element: 'sdc4:NI', original: 'N/A' })]);
  });

  it('Arrest-Report answers 422 VALIDATION_FAILED with the compiler messages, and nothing is stored', async () => {
    const before = await instanceCount();
    const xml = readFileSync(path.join(ARREST_REPORT, `dm-${AR_CT_ID}.xml`), 'utf8');
    const res = await validateJson({ xml_content: xml });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.errors.map((e: { message: string }) => e.message).join('\n')).toContain('ms-z20mkgtan3ssfkr039znza8o');
    expect(await instanceCount()).toBe(before);
  });
});

describe('input', () => {
  it('accepts a multipart file, with and without the trailing slash', async () => {
    for (const route of [VALIDATE, VALIDATE.slice(0, -1)]) {
      const res = await app.call('POST', route, { body: form([{ field: 'file', name: 'instance.xml', content: SP_XML }]) });
      expect(res.status).toBe(201);
      expect(res.body.data.validation_status).toBe('valid');
    }
  });

  it('needs a file or xml_content: XML_REQUIRED', async () => {
    for (const res of [
      await validateJson({}),
      await validateJson({ xml_content: '' }),
      await app.call('POST', VALIDATE, { body: form([], { other: 'x' }) }),
      await app.call('POST', VALIDATE),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: { code: 'XML_REQUIRED', message: expect.any(String), details: {} } });
    }
  });

  it('unparseable XML is INVALID_XML with the parser message and the root tag (null without a root)', async () => {
    const noRoot = await validateJson({ xml_content: 'not xml at all' });
    expect(noRoot.status).toBe(400);
    expect(noRoot.body.error.code).toBe('INVALID_XML');
    expect(noRoot.body.error.details.root_tag).toBeNull();
    expect(noRoot.body.error.message.length).toBeGreaterThan(20);

    const broken = await validateJson({ xml_content: `<sdc4:dm-${SP_CT_ID} xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"><a></b>` });
    expect(broken.status).toBe(400);
    expect(broken.body.error.details.root_tag).toBe(`sdc4:dm-${SP_CT_ID}`);
  });

  it('a root that is not dm-{ct_id} in the SDC4 namespace is INVALID_XML with root_tag', async () => {
    const wrongName = await validateJson({ xml_content: '<sdc4:cluster xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"/>' });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.error).toMatchObject({ code: 'INVALID_XML', details: { root_tag: 'sdc4:cluster' } });
    const wrongNamespace = await validateJson({ xml_content: `<x:dm-${SP_CT_ID} xmlns:x="urn:other"/>` });
    expect(wrongNamespace.body.error).toMatchObject({ code: 'INVALID_XML', details: { root_tag: `x:dm-${SP_CT_ID}` } });
  });

  it('no stored XSD is 404 SCHEMA_NOT_FOUND with dm_ct_id', async () => {
    const res = await validateJson({ xml_content: SP_XML.replaceAll(SP_CT_ID, 'zzzzzzzzzzzzzzzzzzzzzzzz') });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'SCHEMA_NOT_FOUND', details: { dm_ct_id: 'zzzzzzzzzzzzzzzzzzzzzzzz' } });
  });

  it('DTDs and entities are never processed', async () => {
    const before = await instanceCount();
    const xxe = SP_XML.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
    );
    const res = await validateJson({ xml_content: xxe });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_XML');
    expect(await instanceCount()).toBe(before);
  });

  it('a JSON body past OFF_LOOP_JSON_BYTES is parsed in the CPU pool, with the same answers as a small one', async () => {
    const post = (body: Buffer) => app.call('POST', VALIDATE, { body: new Uint8Array(body), headers: JSON_TYPE });
    const completed = () => app.services.cpu.stats?.completed ?? 0;
    const padded = (body: Buffer) => Buffer.concat([body, Buffer.from(' '.repeat(OFF_LOOP_JSON_BYTES))]);
    const bodies = {
      valid: Buffer.from(JSON.stringify({ xml_content: SP_XML })),
      // Its XML reaches the validating thread as UTF-8 bytes, decoded by their declaration: one naming another
      // encoding is sent on as text, so the answer is the same.
      'declared Latin-1': Buffer.from(JSON.stringify({ xml_content: SP_XML.replace('encoding="UTF-8"?>', 'encoding="ISO-8859-1"?><!-- café -->') })),
      malformed: Buffer.from('{"xml_content": '),
      'not UTF-8': Buffer.concat([Buffer.from('{"xml_content": "<a>'), Buffer.from([0xff, 0xfe]), Buffer.from('</a>"}')]),
      'not an object': Buffer.from('["<a/>"]'),
      'a NUL escape': Buffer.from('{"xml_content": "<a>\\u0000</a>"}'),
    };
    for (const [name, body] of Object.entries(bodies)) {
      const small = await post(body);
      const before = completed();
      const large = await post(padded(body));
      expect({ name, status: large.status }).toEqual({ name, status: small.status });
      if (name === 'valid' || name === 'declared Latin-1') {
        expect(large.body.data.validation_status).toBe(small.body.data.validation_status);
        const stored = await app.services.db.query('SELECT original_xml FROM app_instances WHERE instance_id = ANY($1) ORDER BY id', [
          [small.body.data.instance_id, large.body.data.instance_id],
        ]);
        expect(stored.map((row: { original_xml: string }) => row.original_xml)).toEqual([
          JSON.parse(body.toString()).xml_content,
          JSON.parse(body.toString()).xml_content,
        ]);
      } else {
        expect(large.body).toEqual(small.body);
        expect(small.body.error_code).toBe('VALIDATION_ERROR');
        // The refused body was a pool task of its own: parsed off the event loop.
        expect(completed() - before).toBe(1);
      }
    }
  });

  it('a raw XML body arriving in many pieces, with or without a Content-Length, is the instance sent', async () => {
    // Padded past one read so that it arrives in pieces: each is copied into the body as it comes.
    const xml = SP_XML.replace('<dm-label>', `<!-- ${'é'.repeat(200_000)} --><dm-label>`);
    const pieces = (text: string) => {
      const bytes = Buffer.from(text);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 7_001) controller.enqueue(new Uint8Array(bytes.subarray(at, at + 7_001)));
          controller.close();
        },
      });
    };
    const headers = { 'content-type': 'application/xml' };
    const declared = await app.call('POST', VALIDATE, { body: new Uint8Array(Buffer.from(xml)), headers });
    // A stream body is sent chunked: no Content-Length.
    const streamed = await fetch(app.url + VALIDATE, {
      method: 'POST',
      body: pieces(xml),
      headers: { ...headers, 'x-api-key': app.key },
      duplex: 'half',
    } as RequestInit);
    const chunked = { status: streamed.status, body: await streamed.json() };
    for (const res of [declared, chunked])
      expect({ status: res.status, valid: res.body.data?.validation_status }).toEqual({ status: 201, valid: 'valid' });
    const stored = await app.services.db.query('SELECT original_xml FROM app_instances WHERE instance_id = ANY($1)', [
      [declared.body.data.instance_id, chunked.body.data.instance_id],
    ]);
    expect(stored.map((row: { original_xml: string }) => row.original_xml)).toEqual([xml, xml]);
  });
  it('any other error is 422 VALIDATION_FAILED with details.errors [{line, message}], nothing stored', async () => {
    const before = await instanceCount();
    const res = await validateJson({ xml_content: SP_XML.replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>23</xdcount-value><bogus/>') });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.errors).toEqual([{ line: 25, message: expect.stringContaining('bogus') }]);
    expect(await instanceCount()).toBe(before);
  });
});

describe('generate_instance_id and sync_triplestore', () => {
  const withOwnId = (id: string) => SP_XML.replace(`<instance_id>dm-${SP_CT_ID}</instance_id>`, `<instance_id>${id}</instance_id>`);

  it('false keeps the instance_id of the XML (form field, JSON field or query), and a taken one is 400', async () => {
    const json = await validateJson({ xml_content: withOwnId('own-1'), generate_instance_id: false });
    expect(json.status).toBe(201);
    expect(json.body.data.instance_id).toBe('own-1');
    const field = await app.call('POST', VALIDATE, {
      body: form([{ field: 'file', name: 'a.xml', content: withOwnId('own-2') }], { generate_instance_id: 'false' }),
    });
    expect(field.body.data.instance_id).toBe('own-2');
    const query = await validateJson({ xml_content: withOwnId('own-3') }, '?generate_instance_id=false');
    expect(query.body.data.instance_id).toBe('own-3');

    const taken = await validateJson({ xml_content: withOwnId('own-1'), generate_instance_id: false });
    expect(taken.status).toBe(400);
    expect(taken.body.error).toMatchObject({ code: 'INVALID_INSTANCE_ID', details: { instance_id: 'own-1' } });
  });

  it('at once, each answer stands for its own stored row: one taken id is 400 and every other one is stored', async () => {
    const ids = ['burst-1', 'burst-2', 'burst-3', 'burst-2', 'burst-4', 'burst-5', 'burst-6', 'burst-7'];
    const answers = await Promise.all(ids.map((id) => validateJson({ xml_content: withOwnId(id), generate_instance_id: false })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s === 400)).toHaveLength(1);
    expect(answers.find((a) => a.status === 400)!.body.error).toMatchObject({ code: 'INVALID_INSTANCE_ID', details: { instance_id: 'burst-2' } });
    const stored = await app.services.db.query(
      "SELECT i.instance_id, g.triple_count FROM app_instances i JOIN app_graphs g USING (graph_uri) WHERE i.instance_id LIKE 'burst-%' ORDER BY 1",
    );
    expect(stored.map((r: { instance_id: string }) => r.instance_id)).toEqual([...new Set(ids)].sort());
    expect(stored.every((r: { triple_count: number }) => r.triple_count > 0)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 201)) {
      expect((await app.call('GET', `/api/v1/instances/${answer.body.data.instance_id}/`)).status).toBe(200);
    }
  });

  it('false without an instance_id in the XML is 400', async () => {
    const res = await validateJson({
      xml_content: SP_XML.replace(`<instance_id>dm-${SP_CT_ID}</instance_id>`, '<instance_id></instance_id>'),
      generate_instance_id: false,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INSTANCE_ID');
  });

  it('refuses a value that is not a boolean', async () => {
    const res = await validateJson({ xml_content: SP_XML, generate_instance_id: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'generate_instance_id' } });
  });

  it('sync_triplestore=false is disabled (and so is every sync when no triplestore is configured)', async () => {
    const res = await validateJson({ xml_content: SP_XML, sync_triplestore: false });
    expect(res.body.data.rdf_sync_status).toBe('disabled');
  });
});

describe('what is stored', () => {
  it('original and corrected XML, status, errors, corrections, a JSON rendering and the extracted RDF', async () => {
    const res = await validateJson({ xml_content: SP_NA });
    const id = res.body.data.instance_id;
    const shown = await app.call('GET', `/api/v1/instances/${id}/`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      instance_id: id,
      validation_status: 'valid_with_ev',
      validation_errors: { 'line-25': expect.stringContaining('N/A') },
      rdf_sync_status: 'disabled',
      graph_uri: `urn:sdc4:instance:${id}`,
      original_xml: SP_NA,
      json: { dm_id: SP_CT_ID, metadata: expect.objectContaining({ dm_label: 'StatePopulation' }) },
    });
    const [graph] = await app.services.db.query('SELECT source, triple_count, ntriples FROM app_graphs WHERE graph_uri = $1', [
      `urn:sdc4:instance:${id}`,
    ]);
    expect(graph.source).toBe('instance');
    expect(graph.triple_count).toBeGreaterThan(20);
    expect(graph.ntriples).toContain('No Information');
  });

  it('an unknown instance is 404 INSTANCE_NOT_FOUND', async () => {
    const res = await app.call('GET', '/api/v1/instances/i-nope/');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('INSTANCE_NOT_FOUND');
  });

  it('re-uploading a schema replaces it and drops the compiled one: the next validation uses the new file', async () => {
    const ctId = 'reuploadtestmodel0000001';
    const xsd = SP_XSD.toString().replaceAll(SP_CT_ID, ctId);
    const xml = SP_XML.replaceAll(SP_CT_ID, ctId);
    const upload = (text: string) =>
      app.call('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name: `dm-${ctId}.xsd`, content: text }]) });
    await upload(xsd);
    expect((await validateJson({ xml_content: xml })).status).toBe(201);
    expect(app.services.app.schemas.size).toBeGreaterThan(0);
    await upload(xsd.replace('name="dm-label"', 'name="dm-title"'));
    const after = await validateJson({ xml_content: xml });
    expect(after.status).toBe(422);
    expect(JSON.stringify(after.body.error.details.errors)).toContain('dm-label');
  });
});

describe('SPARQL over the embedded store', () => {
  it('answers SELECT over every instance graph by GET and by form POST, read-only', async () => {
    const res = await validateJson({ xml_content: SP_XML });
    const graph = `urn:sdc4:instance:${res.body.data.instance_id}`;
    const query = `SELECT ?label WHERE { GRAPH <${graph}> { <${graph}> <https://semanticdatacharter.com/ns/sdc4/dm-label> ?label } }`;
    const get = await app.call('GET', `/api/v1/sparql?query=${encodeURIComponent(query)}`);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toContain('application/sparql-results+json');
    expect(JSON.parse(get.text).results.bindings).toEqual([{ label: { type: 'literal', value: 'StatePopulation' } }]);

    const post = await app.call('POST', '/api/v1/sparql', {
      body: new URLSearchParams({ query }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/csv' },
    });
    expect(post.status).toBe(200);
    expect(post.text).toContain('StatePopulation');

    const update = await app.call('POST', '/api/v1/sparql', {
      body: `DROP GRAPH <${graph}>`,
      headers: { 'content-type': 'application/sparql-query' },
    });
    expect(update.status).toBe(400);
    expect(update.body.error.code).toBe('INVALID_QUERY');
    const still = await app.call('GET', `/api/v1/sparql?query=${encodeURIComponent(query)}`);
    expect(JSON.parse(still.text).results.bindings).toHaveLength(1);
  });

  it('refuses SERVICE (no network) and needs the key', async () => {
    const service = await app.call(
      'GET',
      `/api/v1/sparql?query=${encodeURIComponent('SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }')}`,
    );
    expect(service.status).toBe(400);
    const anonymous = await fetch(`${app.url}/api/v1/sparql?query=${encodeURIComponent('ASK {}')}`);
    expect(anonymous.status).toBe(401);
  });
});
