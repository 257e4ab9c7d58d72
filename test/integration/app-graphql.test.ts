import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeZip, SP_CT_ID, startAppUnderTest, STATE_POPULATION, storedNames, type AppUnderTest } from './app-helpers';

const fixture = (name: string) => readFileSync(path.join(STATE_POPULATION, name));

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(() => app?.close());

/** A GraphQL multipart request (graphql-multipart-request-spec): operations, map, then the files. */
async function upload(
  query: string,
  variables: Record<string, unknown>,
  files: Record<string, { name: string; content: Buffer | string }>,
  key = app.key,
) {
  const data = new FormData();
  data.append('operations', JSON.stringify({ query, variables }));
  data.append('map', JSON.stringify(Object.fromEntries(Object.keys(files).map((path, i) => [String(i), [path]]))));
  Object.values(files).forEach((file, i) => data.append(String(i), new Blob([file.content as BlobPart]), file.name));
  const res = await fetch(`${app.url}/graphql`, { method: 'POST', body: data, headers: { 'x-api-key': key, 'apollo-require-preflight': 'true' } });
  return { status: res.status, body: await res.json() };
}

async function graphql(query: string, variables: Record<string, unknown>, headers: Record<string, string> = { 'x-api-key': app.key }) {
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    body: JSON.stringify({ query, variables }),
    headers: { 'content-type': 'application/json', ...headers },
  });
  return await res.json();
}

describe('GraphQL mutations over the same services', () => {
  it('uploadSchemaFiles stores good names and reports the others', async () => {
    const res = await upload(
      'mutation ($files: [Upload!]!) { uploadSchemaFiles(files: $files) { storedFiles { filename path size } errors { filename error } } }',
      { files: [null, null] },
      {
        'variables.files.0': { name: `dm-${SP_CT_ID}.xsd`, content: fixture(`dm-${SP_CT_ID}.xsd`) },
        'variables.files.1': { name: 'bad.txt', content: 'x' },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.uploadSchemaFiles).toEqual({
      storedFiles: [{ filename: `dm-${SP_CT_ID}.xsd`, path: `dmlib/dm-${SP_CT_ID}.xsd`, size: fixture(`dm-${SP_CT_ID}.xsd`).length }],
      errors: [{ filename: 'bad.txt', error: 'Invalid file extension. Allowed extensions: .xsd, .html, .owl' }],
    });
  });

  it('validateXml takes xmlContent or a file, with the REST result and the same error codes', async () => {
    const fields = 'instanceId dmCtId dmLabel validationStatus storageType autoCorrectedFields validationErrors rdfSyncStatus';
    const na = fixture(`dm-${SP_CT_ID}.xml`).toString().replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>');
    const text = await graphql(`mutation ($xml: String) { validateXml(xmlContent: $xml) { ${fields} } }`, { xml: na });
    expect(text.errors).toBeUndefined();
    expect(text.data.validateXml).toMatchObject({
      instanceId: expect.stringMatching(/^i-ev-/),
      dmLabel: 'StatePopulation',
      validationStatus: 'valid_with_ev',
      storageType: 'generic',
      autoCorrectedFields: ['line-25'],
      rdfSyncStatus: 'disabled',
    });
    const file = await upload(
      `mutation ($file: Upload) { validateXml(file: $file, generateInstanceId: true) { ${fields} } }`,
      { file: null },
      {
        'variables.file': { name: 'instance.xml', content: fixture(`dm-${SP_CT_ID}.xml`) },
      },
    );
    expect(file.body.data.validateXml).toMatchObject({
      instanceId: expect.stringMatching(/^i-[a-z0-9]{24}$/),
      validationStatus: 'valid',
      validationErrors: null,
    });

    const missing = await graphql(`mutation { validateXml { ${fields} } }`, {});
    expect(missing.errors[0].extensions).toMatchObject({ code: 'XML_REQUIRED', status: 400 });
    const badRoot = await graphql(
      `
        mutation ($xml: String) {
          validateXml(xmlContent: $xml) {
            instanceId
          }
        }
      `,
      { xml: '<root/>' },
    );
    expect(badRoot.errors[0].extensions).toMatchObject({ code: 'INVALID_XML', details: { rootTag: 'root' } });
  });

  it('uploadZip and uploadRdf store their files', async () => {
    const zip = await makeZip([{ name: 'a.txt', content: 'a' }]);
    const zipRes = await upload(
      'mutation ($file: Upload!) { uploadZip(file: $file) { filename path size } }',
      { file: null },
      { 'variables.file': { name: 'pkg.zip', content: zip } },
    );
    expect(zipRes.body.data.uploadZip).toEqual({ filename: 'pkg.zip', path: 'zip/pkg.zip', size: zip.length });
    const rdfRes = await upload(
      'mutation ($file: Upload!) { uploadRdf(file: $file) { filename path triplestoreStatus graphUri } }',
      { file: null },
      {
        'variables.file': { name: `dm-${SP_CT_ID}.ttl`, content: fixture(`dm-${SP_CT_ID}.ttl`) },
      },
    );
    expect(rdfRes.body.data.uploadRdf).toEqual({
      filename: `dm-${SP_CT_ID}.ttl`,
      path: `dmlib/dm-${SP_CT_ID}.ttl`,
      triplestoreStatus: 'disabled',
      graphUri: `urn:sdc4:dm-${SP_CT_ID}:schema`,
    });
    const badZip = await upload(
      'mutation ($file: Upload!) { uploadZip(file: $file) { path } }',
      { file: null },
      { 'variables.file': { name: 'bad.zip', content: 'nope' } },
    );
    expect(badZip.body.errors[0].extensions.code).toBe('INVALID_ZIP');
    expect(await storedNames(app.storageDir, '.incoming')).toEqual([]);
  });

  it('refuses a file over MAX_UPLOAD_BYTES with FILE_TOO_LARGE (413), as REST does, and keeps nothing', async () => {
    const small = await startAppUnderTest({ maxUploadBytes: 64 });
    try {
      const res = await fetch(`${small.url}/graphql`, {
        method: 'POST',
        body: (() => {
          const data = new FormData();
          data.append(
            'operations',
            JSON.stringify({ query: 'mutation ($file: Upload!) { uploadZip(file: $file) { path } }', variables: { file: null } }),
          );
          data.append('map', JSON.stringify({ 0: ['variables.file'] }));
          data.append('0', new Blob(['x'.repeat(200)]), 'big.zip');
          return data;
        })(),
        headers: { 'x-api-key': small.key, 'apollo-require-preflight': 'true' },
      });
      const body = await res.json();
      expect(body.errors[0].extensions).toMatchObject({ code: 'FILE_TOO_LARGE', status: 413 });
      expect(await storedNames(small.storageDir, 'zip')).toEqual([]);
      expect(await storedNames(small.storageDir, '.incoming')).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('needs an active X-API-Key: none, a studio token or a deactivated key is AUTHENTICATION_ERROR', async () => {
    const issued = await app.services.app.keys.create({ organization: 'Old', contactEmail: 'old@org.test' });
    await app.services.app.keys.deactivate(issued.key.id);
    for (const headers of [{}, { authorization: 'Token sdc_whatever' }, { 'x-api-key': issued.plaintext }] as Array<Record<string, string>>) {
      const res = await graphql('mutation { validateXml(xmlContent: "<a/>") { instanceId } }', {}, headers);
      expect(res.errors[0].extensions).toMatchObject({ code: 'AUTHENTICATION_ERROR', status: 401 });
    }
  });
});
