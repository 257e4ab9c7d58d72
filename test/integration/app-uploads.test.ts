import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { form, makeZip, SP_CT_ID, startAppUnderTest, STATE_POPULATION, storedNames, type AppUnderTest } from './app-helpers';

const fixture = (name: string) => readFileSync(path.join(STATE_POPULATION, name));
const INVALID_EXTENSION = 'Invalid file extension. Allowed extensions: .xsd, .html, .owl';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(() => app?.close());

describe('upload/zip/', () => {
  it('stores a checked ZIP under zip/ and answers {filename, path, size}', async () => {
    const zip = await makeZip([
      { name: 'pkg/dm-a.xsd', content: '<x/>'.repeat(100) },
      { name: 'pkg/readme.md', content: 'hello' },
    ]);
    const res = await app.call('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name: 'StatePopulation.zip', content: zip }]) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { filename: 'StatePopulation.zip', path: 'zip/StatePopulation.zip', size: zip.length } });
    expect(readFileSync(path.join(app.storageDir, 'zip/StatePopulation.zip')).equals(zip)).toBe(true);
    expect(await storedNames(app.storageDir, '.incoming')).toEqual([]);
  });

  it('answers without the trailing slash too, and sanitises the stored name', async () => {
    const zip = await makeZip([{ name: 'a.txt', content: 'a' }]);
    const res = await app.call('POST', '/api/v1/upload/zip', { body: form([{ field: 'file', name: '../../my package (v2).zip', content: zip }]) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ filename: 'my_package_v2_.zip', path: 'zip/my_package_v2_.zip' });
    expect(await storedNames(app.storageDir, 'zip')).toContain('my_package_v2_.zip');
  });

  it('FILE_REQUIRED without a file (also when "file" is a plain field)', async () => {
    for (const body of [form([], { note: 'x' }), form([], { file: 'not a file' })]) {
      const res = await app.call('POST', '/api/v1/upload/zip/', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: { code: 'FILE_REQUIRED', message: expect.any(String), details: {} } });
    }
  });

  it('INVALID_FILE_TYPE (400) for anything but .zip', async () => {
    const res = await app.call('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name: 'package.tar', content: 'x' }]) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_FILE_TYPE');
  });

  it('INVALID_ZIP for bytes that are not a ZIP, a truncated ZIP and a CRC mismatch; nothing stored', async () => {
    const before = await storedNames(app.storageDir, 'zip');
    const good = await makeZip([{ name: 'data.txt', content: 'the quick brown fox jumps over the lazy dog', compress: false }]);
    const corrupted = Buffer.from(good);
    const dataStart = 30 + corrupted.readUInt16LE(26) + corrupted.readUInt16LE(28);
    corrupted[dataStart] ^= 0xff;
    for (const [name, content, reason] of [
      ['random.zip', Buffer.from('PK but not really a zip file'), /central directory|signature/i],
      ['truncated.zip', good.subarray(0, good.length - 30), /central directory|signature|truncated|end/i],
      ['crc.zip', corrupted, /CRC-32 mismatch/],
    ] as const) {
      const res = await app.call('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name, content }]) });
      expect({ name, status: res.status, code: res.body.error.code }).toEqual({ name, status: 400, code: 'INVALID_ZIP' });
      expect(res.body.error.message).toMatch(reason);
    }
    expect(await storedNames(app.storageDir, 'zip')).toEqual(before);
    expect(await storedNames(app.storageDir, '.incoming')).toEqual([]);
  });

  it('415 in the general format for a body that is not multipart', async () => {
    const res = await app.call('POST', '/api/v1/upload/zip/', { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      success: false,
      error: expect.any(String),
      errors: { 'Content-Type': expect.any(Array) },
      error_code: 'INVALID_FILE_TYPE',
    });
  });
});

describe('upload/schema/', () => {
  it('stores good names under dmlib/ and lists the others in errors with the contract messages, still 201', async () => {
    const res = await app.call('POST', '/api/v1/upload/schema/', {
      body: form([
        { field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: fixture(`dm-${SP_CT_ID}.xsd`) },
        { field: 'files', name: `dm-${SP_CT_ID}.html`, content: fixture(`dm-${SP_CT_ID}.html`) },
        { field: 'files', name: `dm-${SP_CT_ID}.owl`, content: '<rdf:RDF/>' },
        { field: 'files', name: 'schema.txt', content: 'x' },
        { field: 'files', name: 'model.xsd', content: '<x/>' },
      ]),
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.stored_files).toEqual([
      { filename: `dm-${SP_CT_ID}.xsd`, path: `dmlib/dm-${SP_CT_ID}.xsd`, size: fixture(`dm-${SP_CT_ID}.xsd`).length },
      { filename: `dm-${SP_CT_ID}.html`, path: `dmlib/dm-${SP_CT_ID}.html`, size: fixture(`dm-${SP_CT_ID}.html`).length },
      { filename: `dm-${SP_CT_ID}.owl`, path: `dmlib/dm-${SP_CT_ID}.owl`, size: 10 },
    ]);
    expect(res.body.data.errors).toEqual([
      { filename: 'schema.txt', error: INVALID_EXTENSION },
      { filename: 'model.xsd', error: expect.stringContaining('dm-{ct_id}.{ext}') },
    ]);
    expect(await storedNames(app.storageDir, 'dmlib')).toEqual(
      expect.arrayContaining([`dm-${SP_CT_ID}.xsd`, `dm-${SP_CT_ID}.html`, `dm-${SP_CT_ID}.owl`]),
    );
    expect(await storedNames(app.storageDir, 'dmlib')).not.toContain('model.xsd');
  });

  it('201 with only errors when every name is wrong', async () => {
    const res = await app.call('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name: 'x.pdf', content: 'x' }]) });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ stored_files: [], errors: [{ filename: 'x.pdf', error: INVALID_EXTENSION }] });
  });

  it('FILES_REQUIRED without files', async () => {
    const res = await app.call('POST', '/api/v1/upload/schema/', { body: form([], { files: 'text' }) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('FILES_REQUIRED');
  });

  it('replaces a re-uploaded name with the new content', async () => {
    const name = 'dm-replacedmodel000000000001.xsd';
    await app.call('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name, content: '<first/>' }]) });
    const second = await app.call('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name, content: '<second-version/>' }]) });
    expect(second.body.data.stored_files[0].size).toBe(17);
    expect(readFileSync(path.join(app.storageDir, 'dmlib', name), 'utf8')).toBe('<second-version/>');
  });

  it('lists an XSD that is not well-formed XML, or carries a DTD, in errors and stores the rest', async () => {
    const broken = 'dm-brokenschema00000000001.xsd';
    const dtd = 'dm-dtdschema0000000000000001.xsd';
    const good = 'dm-goodschema0000000000001.xsd';
    const res = await app.call('POST', '/api/v1/upload/schema/', {
      body: form([
        { field: 'files', name: broken, content: '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">' },
        { field: 'files', name: dtd, content: '<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>' },
        { field: 'files', name: good, content: '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"/>' },
      ]),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      stored_files: [{ filename: good, path: `dmlib/${good}`, size: 58 }],
      errors: [
        { filename: broken, error: expect.stringMatching(/^Invalid XML schema: .+\.$/) },
        { filename: dtd, error: 'Invalid XML schema: DOCTYPE declarations are not allowed (no DTDs, no entities).' },
      ],
    });
    expect(existsSync(path.join(app.storageDir, 'dmlib', broken))).toBe(false);
    expect(existsSync(path.join(app.storageDir, 'dmlib', dtd))).toBe(false);
  });
});

describe('upload/rdf/', () => {
  const graph = `urn:sdc4:dm-${SP_CT_ID}:schema`;
  const count = async () =>
    JSON.parse(
      (await app.call('GET', `/api/v1/sparql?query=${encodeURIComponent(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`)}`)).text,
    ).results.bindings[0].n.value as string;

  it('stores .ttl, .rdf and the SHACL file under dmlib/ with the schema graph URI; disabled without a triplestore', async () => {
    for (const name of [`dm-${SP_CT_ID}.ttl`, `dm-${SP_CT_ID}.rdf`, `dm-${SP_CT_ID}_shacl.ttl`]) {
      const res = await app.call('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name, content: fixture(name) }]) });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        data: { filename: name, path: `dmlib/${name}`, size: fixture(name).length, triplestore_status: 'disabled', graph_uri: graph },
      });
    }
    expect(await storedNames(app.storageDir, 'dmlib')).toEqual(
      expect.arrayContaining([`dm-${SP_CT_ID}.ttl`, `dm-${SP_CT_ID}.rdf`, `dm-${SP_CT_ID}_shacl.ttl`]),
    );
    expect(Number(await count())).toBeGreaterThan(50);
  });

  it('INVALID_FILE_TYPE for other extensions, PARSING_ERROR for unparseable RDF; neither is stored', async () => {
    const wrongType = await app.call('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name: `dm-${SP_CT_ID}.owl`, content: 'x' }]) });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.code).toBe('INVALID_FILE_TYPE');
    const broken = await app.call('POST', '/api/v1/upload/rdf/', {
      body: form([{ field: 'file', name: 'dm-brokenrdfmodel00000000001.ttl', content: '<a> <b> .' }]),
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('PARSING_ERROR');
    expect(await storedNames(app.storageDir, 'dmlib')).not.toContain('dm-brokenrdfmodel00000000001.ttl');
    const missing = await app.call('POST', '/api/v1/upload/rdf/', { body: form([], { a: 'b' }) });
    expect(missing.body.error.code).toBe('FILE_REQUIRED');
  });
});

describe('size limit', () => {
  let small: AppUnderTest;
  beforeAll(async () => {
    small = await startAppUnderTest({ maxUploadBytes: 64 * 1024 });
  });
  afterAll(() => small?.close());

  it('413 FILE_TOO_LARGE in the general format above MAX_UPLOAD_BYTES, nothing stored or staged', async () => {
    const big = Buffer.alloc(200 * 1024, 'a');
    for (const [route, field, name] of [
      ['/api/v1/upload/zip/', 'file', 'big.zip'],
      ['/api/v1/upload/schema/', 'files', `dm-${SP_CT_ID}.xsd`],
      ['/api/v1/upload/rdf/', 'file', `dm-${SP_CT_ID}.ttl`],
      ['/api/v1/validate/xml/', 'file', 'big.xml'],
    ] as const) {
      const res = await small.call('POST', route, { body: form([{ field, name, content: big }]) });
      expect({ route, status: res.status }).toEqual({ route, status: 413 });
      expect(res.body).toEqual({
        success: false,
        error: expect.stringContaining('65536'),
        errors: { file: expect.any(Array) },
        error_code: 'FILE_TOO_LARGE',
      });
    }
    const json = await small.call('POST', '/api/v1/validate/xml/', {
      body: JSON.stringify({ xml_content: 'x'.repeat(200 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(413);
    for (const area of ['zip', 'dmlib', '.incoming'] as const) expect(await storedNames(small.storageDir, area)).toEqual([]);
  });

  it('a file just under the limit is accepted', async () => {
    const zip = await makeZip([{ name: 'a.bin', content: Buffer.alloc(60 * 1024, 1), compress: false }]);
    const res = await small.call('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name: 'ok.zip', content: zip }]) });
    expect(res.status).toBe(201);
  });
});
