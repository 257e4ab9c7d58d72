import { Client } from 'pg';
import { jobPayloadsCamelCase } from '../../src/db/migrations/0030-job-payloads-camel-case';
import { newId } from '../../src/lib/ids';
import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/** Jobs written before migration 0030 kept their requests and results in snake_case; after it they answer REST
 * exactly as they did, GraphQL with their typed result, and a worker reads their request. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { workers: false });
});
afterAll(() => app.close());

const links = { dm_ct_id: 'dm-old', model_url: 'http://m/dm-old', catalog_url: 'http://c/dm-old', package_url: null };

/** Rows as the code before 0030 wrote them, one per kind and shape of result. */
const OLD_ROWS = [
  {
    kind: 'assemble',
    status: 'completed',
    request: { assembly: { title: 'Old assembly' }, estimated_cost_credits: 900 },
    result: { ...links, published: true, generated: false },
  },
  {
    kind: 'assemble',
    status: 'failed',
    request: { body: { title: 'Older assembly' } },
    result: { ...links, published: false, generated: true, finalize_error: 'disk full' },
  },
  { kind: 'assemble', status: 'failed', request: { body: { title: 'Broke after its build' } }, result: links },
  {
    kind: 'upload',
    status: 'completed',
    request: { filename: 'old.csv' },
    result: { ...links, published: false, generated: false, columns: [{ label: 'Age', data_type: 'XdCount' }] },
  },
  { kind: 'generate_package', status: 'completed', request: { dm_ct_id: 'dm-old', profile: 'os' }, result: { ...links, package_url: 'http://p' } },
  {
    kind: 'generate_app',
    status: 'completed',
    request: { dm_ct_id: 'dm-old', profile: 'enterprise' },
    result: { ...links, profile: 'enterprise', app_name: 'Old App', app_url: 'http://a' },
  },
  { kind: 'upload', status: 'queued', request: { filename: 'waiting.csv' }, result: null },
];

it('renames the keys of older rows: REST answers as before, GraphQL typed, requests typed', async () => {
  const { client, user } = await signedIn(app.url, app.services);
  const ctIds: string[] = [];
  for (const row of OLD_ROWS) {
    const ctId = newId();
    ctIds.push(ctId);
    await app.services.db.query('INSERT INTO jobs (ct_id, kind, status, user_id, request, result) VALUES ($1, $2, $3, $4, $5, $6)', [
      ctId,
      row.kind,
      row.status,
      user.id,
      JSON.stringify(row.request),
      row.result === null ? null : JSON.stringify(row.result),
    ]);
  }
  const migration = new Client({ connectionString: app.databaseUrl });
  await migration.connect();
  try {
    await migration.query(jobPayloadsCamelCase.sql);
  } finally {
    await migration.end();
  }

  for (const [i, ctId] of ctIds.entries()) {
    const rest = await client.get(`/api/v1/jobs/${ctId}/`);
    expect(rest.status).toBe(200);
    expect(rest.body.result).toEqual(OLD_ROWS[i].result);
  }

  const [assembled, , broken, uploaded, , app_] = ctIds;
  const query = `query ($ctId: String!) { job(ctId: $ctId) { result {
    ... on AssembleJobResult { dmCtId packageUrl published generated finalizeError }
    ... on UploadJobResult { dmCtId columns { label dataType } }
    ... on Generation { dmCtId profile appName appUrl } } } }`;
  const result = async (ctId: string) => {
    const res = await client.graphql(query, { ctId });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.job.result;
  };
  expect(await result(assembled)).toEqual({ dmCtId: 'dm-old', packageUrl: null, published: true, generated: false, finalizeError: null });
  expect(await result(broken)).toEqual({ dmCtId: 'dm-old', packageUrl: null, published: false, generated: false, finalizeError: null });
  expect(await result(uploaded)).toEqual({ dmCtId: 'dm-old', columns: [{ label: 'Age', dataType: 'XdCount' }] });
  expect(await result(app_)).toEqual({ dmCtId: 'dm-old', profile: 'enterprise', appName: 'Old App', appUrl: 'http://a' });

  const requests = await Promise.all(ctIds.map((ctId) => app.services.jobs.byCtId(ctId).then((job) => job.request)));
  expect(requests).toEqual([
    { assembly: { title: 'Old assembly' }, estimatedCostCredits: 900 },
    { body: { title: 'Older assembly' } },
    { body: { title: 'Broke after its build' } },
    { filename: 'old.csv' },
    { dmCtId: 'dm-old', profile: 'os' },
    { dmCtId: 'dm-old', profile: 'enterprise' },
    { filename: 'waiting.csv' },
  ]);
});
