import { rm } from 'node:fs/promises';
import type { HttpClient } from '../support/http';
import { issueKey, signedIn } from '../support/factories';
import {
  EV_FAMILIES_CT_ID,
  evFamiliesPackageDir,
  evFamiliesXml,
  evFamiliesXsd,
  FAMILY_NAMES,
  SMUGGLINGS,
  smuggled,
  valueLine,
  withValue,
  type Family,
} from '../support/ev-families';
import { form, startAppUnderTest, type AppUnderTest } from './app-helpers';

/**
 * The EV rule through HTTP, on one generated model with a component of each datatype family. An ExceptionalValue
 * excuses only datatype errors on its component's value: an EV beside an undeclared child, a wrong fixed label or
 * a missing value is 422 VALIDATION_FAILED on Interface B and `valid: false` with structural errors on VaaS strict.
 * The placeholders `-` and an empty or blank number or date are corrected into sdc4:NI, with the same outcome on
 * Interface B, VaaS recover and GraphQL's validateInstance.
 */

let app: AppUnderTest;
let studio: HttpClient;
let packageDir: string;

beforeAll(async () => {
  app = await startAppUnderTest({}, { workers: false });
  const uploaded = await app.call('POST', '/api/v1/upload/schema/', {
    body: form([{ field: 'files', name: `dm-${EV_FAMILIES_CT_ID}.xsd`, content: Buffer.from(evFamiliesXsd()) }]),
  });
  expect(uploaded.body.data.errors).toEqual([]);
  packageDir = await evFamiliesPackageDir();
  await app.services.packages.importPackage(packageDir);
  const { client } = await signedIn(app.url, app.services, { credits: 1_000_000 });
  studio = client.withToken((await issueKey(client)).key);
}, 180_000);
afterAll(async () => {
  await app?.close();
  if (packageDir) await rm(packageDir, { recursive: true, force: true });
});

const interfaceB = (xml: string) =>
  app.call('POST', '/api/v1/validate/xml/', { body: JSON.stringify({ xml_content: xml }), headers: { 'content-type': 'application/json' } });
const vaas = (xml: string, mode: 'strict' | 'recover') =>
  studio.request('POST', `/api/v1/vaas/validate/?mode=${mode}`, xml, { 'content-type': 'application/xml' });
const graphql = (xml: string, mode: 'strict' | 'recover') =>
  studio.graphql(
    `mutation ($xml: String!, $mode: String) {
      validateInstance(xml: $xml, mode: $mode) { valid structuralErrors semanticErrors recovered recoveredXml errors { line } corrections { line ev element original } }
    }`,
    { xml, mode },
  );

it('the generated example instance is valid on Interface B and VaaS strict', async () => {
  const b = await interfaceB(evFamiliesXml());
  expect(b.status).toBe(201);
  expect(b.body.data.validation_status).toBe('valid');
  const strict = await vaas(evFamiliesXml(), 'strict');
  expect(strict.status).toBe(200);
  expect(strict.body).toMatchObject({ valid: true, structural_errors: 0, semantic_errors: 0 });
});

describe.each(FAMILY_NAMES)('an EV on the %s component', (family) => {
  it.each(SMUGGLINGS)('with a(n) %s: 422 on Interface B, valid: false with structural errors on VaaS strict', async (shape) => {
    const xml = smuggled(family, shape);

    const b = await interfaceB(xml);
    const strict = await vaas(xml, 'strict');

    expect(b.status).toBe(422);
    expect(b.body.error.code).toBe('VALIDATION_FAILED');
    expect(strict.status).toBe(200);
    expect(strict.body.valid).toBe(false);
    expect(strict.body.structural_errors).toBeGreaterThan(0);
    expect(strict.body.recovered).toBe(false);
  });
});

describe('placeholders: one corpus, one outcome on Interface B, VaaS recover and GraphQL', () => {
  const corpus: Array<[Family, string]> = [
    ['count', '-'],
    ['count', ''],
    ['count', '   '],
    ['quantity', '-'],
    ['quantity', ''],
    ['temporal', '-'],
    ['temporal', ''],
    ['temporal', ' \t '],
    ['boolean', '-'],
  ];

  it.each(corpus)('%s %j is corrected to sdc4:NI (valid_with_ev), only the quarantined value reported', async (family, text) => {
    const xml = withValue(family, text);
    const line = valueLine(family);
    const correction = { line, ev: 'EV_NULL', element: 'sdc4:NI', original: text };

    const b = await interfaceB(xml);
    const recover = await vaas(xml, 'recover');
    const gql = await graphql(xml, 'recover');

    expect(b.status).toBe(201);
    expect(b.body.data).toMatchObject({ validation_status: 'valid_with_ev', auto_corrected_fields: [`line-${line}`] });
    expect(Object.keys(b.body.data.validation_errors)).toEqual([`line-${line}`]);
    const [row] = await app.services.db.query('SELECT corrected_xml, corrections FROM app_instances WHERE instance_id = $1', [
      b.body.data.instance_id,
    ]);
    expect(row.corrections).toEqual([correction]);

    expect(recover.status).toBe(200);
    expect(recover.body).toMatchObject({ valid: true, structural_errors: 0, recovered: true, corrections: [correction] });
    expect(recover.body.errors.map((e: { line: number }) => e.line)).toEqual([line]);
    expect(recover.body.recovered_xml).toBe(row.corrected_xml);

    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.validateInstance).toMatchObject({ valid: true, structuralErrors: 0, recovered: true, corrections: [correction] });
    expect(gql.body.data.validateInstance.recoveredXml).toBe(row.corrected_xml);

    // The corrected instance re-validates as it is, the quarantined value its only error, on every door.
    const again = await interfaceB(row.corrected_xml);
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ validation_status: 'valid_with_ev', auto_corrected_fields: [] });
    expect(Object.keys(again.body.data.validation_errors)).toEqual([`line-${line}`]);
    const strictAgain = await vaas(row.corrected_xml, 'strict');
    expect(strictAgain.body).toMatchObject({ valid: true, structural_errors: 0, semantic_errors: 1, recovered: false, corrections: [] });
  });

  it.each([
    ['string', '-', 201],
    ['string', '', 201],
    ['boolean', '', 422],
  ] as Array<[Family, string, number]>)('%s %j is not corrected: %s on Interface B, the same verdict elsewhere', async (family, text, status) => {
    const xml = withValue(family, text);

    const b = await interfaceB(xml);
    const recover = await vaas(xml, 'recover');
    const gql = await graphql(xml, 'recover');

    expect(b.status).toBe(status);
    if (status === 201) expect(b.body.data).toMatchObject({ validation_status: 'valid', auto_corrected_fields: [] });
    const valid = status === 201;
    expect(recover.body).toMatchObject({ valid, recovered: false, corrections: [] });
    expect(gql.body.data.validateInstance).toMatchObject({ valid, recovered: false, corrections: [] });
  });
});
