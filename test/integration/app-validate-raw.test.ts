import { readFileSync } from 'node:fs';
import path from 'node:path';
import { form, SP_CT_ID, startAppUnderTest, STATE_POPULATION, type AppUnderTest } from './app-helpers';

/** Interface B's validate/xml/ as the toolkit's distribution step calls it: the instance itself as the body. */

const SP_XML = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`), 'utf8');
const SP_NA = SP_XML.replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>');
const VALIDATE = '/api/v1/validate/xml/';
const MAX_UPLOAD_BYTES = 64 * 1024;

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest({ maxUploadBytes: MAX_UPLOAD_BYTES }, { workers: false });
  const uploaded = await app.call('POST', '/api/v1/upload/schema/', {
    body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`)) }]),
  });
  expect(uploaded.status).toBe(201);
});
afterAll(() => app?.close());

const raw = (xml: string, type: string) => app.call('POST', VALIDATE, { body: xml, headers: { 'content-type': type } });
const withoutId = (body: any) => ({ ...body, data: { ...body.data, instance_id: undefined } });

describe('validate/xml/ with a raw XML body', () => {
  it.each(['application/xml', 'text/xml', 'application/xml; charset=utf-8'])('answers %s as it answers JSON xml_content', async (type) => {
    const viaRaw = await raw(SP_NA, type);
    const viaJson = await app.call('POST', VALIDATE, {
      body: JSON.stringify({ xml_content: SP_NA }),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaRaw.status).toBe(201);
    expect(viaRaw.body.data).toMatchObject({ dm_ct_id: SP_CT_ID, validation_status: 'valid_with_ev', auto_corrected_fields: ['line-25'] });
    expect(withoutId(viaRaw.body)).toEqual(withoutId(viaJson.body));
  });

  it('stores exactly the bytes it was sent', async () => {
    const res = await raw(SP_XML, 'application/xml');
    expect(res.status).toBe(201);
    const [row] = await app.services.db.query('SELECT original_xml FROM app_instances WHERE instance_id = $1', [res.body.data.instance_id]);
    expect(row.original_xml).toBe(SP_XML);
  });

  it('reports an invalid document the same way as the other bodies', async () => {
    const broken = SP_XML.replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>23</xdcount-value><surprise/>');
    const viaRaw = await raw(broken, 'text/xml');
    const viaJson = await app.call('POST', VALIDATE, {
      body: JSON.stringify({ xml_content: broken }),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaRaw.status).toBe(viaJson.status);
    expect(withoutId(viaRaw.body)).toEqual(withoutId(viaJson.body));
  });

  it('refuses an empty raw body as a missing document, and one over the upload limit with 413', async () => {
    const empty = await raw('', 'application/xml');
    const missing = await app.call('POST', VALIDATE, { body: JSON.stringify({}), headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(missing.status);
    expect(empty.body).toEqual(missing.body);
    const huge = await raw(`${SP_XML}<!--${'x'.repeat(MAX_UPLOAD_BYTES)}-->`, 'application/xml');
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ success: false });
  });

  it('still refuses a type it does not read', async () => {
    expect((await raw(SP_XML, 'text/turtle')).status).toBe(415);
  });
});
