import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { libraryComponent } from '../support/catalog-factories';
import { issueKey, signedIn, STATE_POPULATION_COLUMNS } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { JOB_RESULT } from '../support/subscriptions';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const JOB = `ctId url kind status step costCredits ${JOB_RESULT} error dataSourceCtId dmCtId taskId`;
const ESTIMATE = `query ($input: AssemblyInput!) { estimate(input: $input) {
  estimateId mode reuse { path ctId label type } mint { path label dataType } problems { path ctId problem message successor }
  modelCredits mintCredits totalCredits totalUsd wallet { balanceCredits canPay }
  key { scopes canSpend spendLimitCredits spentCredits remainingCredits withinLimit }
} }`;
const ASSEMBLE = `mutation ($input: AssemblyInput!) { assemble(input: $input) {
  __typename
  ... on BuiltModel { ctId title identifier published generated packageUrl modelUrl finalizeError estimatedCostCredits balanceCredits root { type label children { type ctId label } } }
  ... on AssemblyJob { jobCtId jobUrl taskId dataSourceCtId newComponents estimatedCost estimatedCostCredits balanceCredits job { ${JOB} } }
} }`;
// Job.dmCtId is nullable and Generation.dmCtId is not: one selection set cannot ask both under one name.
const GENERATE_FIELDS =
  '__typename ... on Generation { dmCtId modelUrl catalogUrl packageUrl profile appName appUrl } ... on Job { ctId kind status jobDmCtId: dmCtId }';

let app: TestApp;
let reused: string;
let contextual: string;
beforeAll(async () => {
  app = await startTestApp({ appDownloadCredits: 250 });
  reused = (await libraryComponent(app.services, { label: 'Reused Name' })).ctId;
  contextual = (await libraryComponent(app.services, { label: 'Audit Trail' })).ctId;
});
afterAll(() => app.close());

async function waitForJob(client: HttpClient, ctId: string, timeoutMs = 60000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    const res = await client.graphql(`query ($ctId: String!) { job(ctId: $ctId) { ${JOB} } }`, { ctId });
    expect(res.body.errors).toBeUndefined();
    const job = res.body.data.job;
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${ctId} still ${job.status}/${job.step}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** A GraphQL multipart request (graphql-multipart-request-spec): operations, map, then the file in part "0". */
function uploadRequest(client: HttpClient, content: Buffer | string, filename: string) {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({
      query: `mutation ($file: Upload!) { uploadDataSource(file: $file) { dataSource { ctId filename size } job { ${JOB} } } }`,
      variables: { file: null },
    }),
  );
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob([content as BlobPart]), filename);
  return client.request('POST', '/graphql', form, { 'apollo-require-preflight': 'true' });
}

const mixedInput = () => ({
  title: 'Vitals',
  description: 'Signs.',
  data: {
    label: 'Vitals Data',
    components: [{ label: 'Pulse', dataType: 'XdCount', units: 'beats/min' }, { ctId: reused }],
    clusters: [{ label: 'Observation', components: [{ label: 'Observed at', dataType: 'XdTemporal', description: 'When.' }] }],
  },
});
const mixedBody = () => ({
  title: 'Vitals',
  description: 'Signs.',
  data: {
    label: 'Vitals Data',
    components: [{ label: 'Pulse', data_type: 'XdCount', units: 'beats/min' }, { ct_id: reused }],
    clusters: [{ label: 'Observation', components: [{ label: 'Observed at', data_type: 'XdTemporal', description: 'When.' }] }],
  },
});
const reuseInput = (extra: Record<string, unknown> = {}) => ({
  title: 'Population',
  data: { label: 'Population Data', components: [{ ctId: reused }] },
  ...extra,
});

describe('GraphQL estimate', () => {
  it('prices the same body exactly as the REST estimate, key figures included', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const key = client.withToken((await issueKey(client, { scopes: ['build'], spend_limit_credits: 700 })).key);
    const gql = await key.graphql(ESTIMATE, { input: { ...mixedInput(), contextual: { audit: { ctId: contextual } } } });
    const rest = await key.post('/api/v1/dmgen/assemble/estimate/', { ...mixedBody(), contextual: { audit: { ct_id: contextual } } });
    expect(rest.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();
    const e = rest.body;
    expect(gql.body.data.estimate).toEqual({
      estimateId: e.estimate_id,
      mode: 'mixed',
      reuse: e.reuse.map((r: any) => ({ path: r.path, ctId: r.ct_id, label: r.label, type: r.type })),
      mint: e.mint.map((m: any) => ({ path: m.path, label: m.label, dataType: m.data_type })),
      problems: [],
      modelCredits: e.model_credits,
      mintCredits: e.mint_credits,
      totalCredits: 800,
      totalUsd: e.total_usd,
      wallet: { balanceCredits: 5000, canPay: true },
      key: { scopes: ['read', 'build'], canSpend: false, spendLimitCredits: 700, spentCredits: 0, remainingCredits: 700, withinLimit: false },
    });
    expect(e.reuse.map((r: any) => r.path)).toEqual(['contextual.audit', 'data.components[1]']);
  });

  it('refuses a malformed tree with malformed_tree and the REST details path', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const components = [{ ctId: reused }, { label: 'Fine', dataType: 'XdString' }, { label: 'No type' }];
    const gql = await client.graphql(ESTIMATE, { input: { title: 'T', data: { label: 'R', clusters: [{ label: 'C', components }] } } });
    const rest = await client.post('/api/v1/dmgen/assemble/estimate/', {
      title: 'T',
      data: {
        label: 'R',
        clusters: [{ label: 'C', components: [{ ct_id: reused }, { label: 'Fine', data_type: 'XdString' }, { label: 'No type' }] }],
      },
    });
    expect(rest.status).toBe(400);
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors[0].extensions).toEqual({ code: 'malformed_tree', status: 400, details: rest.body.details });
    expect(Object.keys(rest.body.details)).toEqual(['data.clusters[0].components[2]']);
  });

  it('needs the build scope', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const readOnly = client.withToken((await issueKey(client, { scopes: ['read'] })).key);
    const res = await readOnly.graphql(ESTIMATE, { input: reuseInput() });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'key_scope', scope: 'build', scopes: ['read'] });
    const assembled = await readOnly.graphql(ASSEMBLE, { input: reuseInput() });
    expect(assembled.body.errors[0].extensions.code).toBe('key_scope');
    expect(await app.services.db.query('SELECT ct_id FROM data_models WHERE owner_id = $1', [user.id])).toEqual([]);
  });
});

describe('GraphQL assemble', () => {
  it('builds an all-reuse model inside the request: a published, generated BuiltModel, charged once', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const estimateId = (await client.graphql(ESTIMATE, { input: reuseInput() })).body.data.estimate.estimateId;
    const res = await client.graphql(ASSEMBLE, { input: reuseInput({ estimateId }) });
    expect(res.body.errors).toBeUndefined();
    const model = res.body.data.assemble;
    expect(model).toMatchObject({
      __typename: 'BuiltModel',
      title: 'Population',
      identifier: `dm-${model.ctId}`,
      published: true,
      generated: true,
      finalizeError: null,
      modelUrl: `${app.url}/api/v1/catalog/dm/${model.ctId}/`,
      estimatedCostCredits: 500,
      balanceCredits: 4500,
    });
    expect(model.root).toEqual({ type: 'Cluster', label: 'Population Data', children: [{ type: 'XdString', ctId: reused, label: 'Reused Name' }] });
    expect((await client.get(new URL(model.packageUrl).pathname)).status).toBe(200);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(4500);
  });

  it('refuses a stale estimate with the REST error', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const res = await client.graphql(ASSEMBLE, { input: reuseInput({ estimateId: '000000000000' }) });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'stale_estimate', status: 409, estimateId: '000000000000' });
  });

  it('queues a mixed assembly as an AssemblyJob that job(ctId) follows to completion', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const res = await client.graphql(ASSEMBLE, { input: mixedInput() });
    expect(res.body.errors).toBeUndefined();
    const queued = res.body.data.assemble;
    expect(queued).toMatchObject({
      __typename: 'AssemblyJob',
      jobUrl: `${app.url}/api/v1/jobs/${queued.jobCtId}/`,
      taskId: expect.any(String),
      dataSourceCtId: expect.any(String),
      newComponents: 2,
      estimatedCost: '0.800',
      estimatedCostCredits: 800,
      job: { ctId: queued.jobCtId, kind: 'assemble', dataSourceCtId: queued.dataSourceCtId },
    });
    expect(['queued', 'running']).toContain(queued.job.status);
    const job = await waitForJob(client, queued.jobCtId);
    expect(job).toMatchObject({ status: 'completed', step: 'done', costCredits: 800, error: null });
    expect(job.result).toMatchObject({ __typename: 'AssembleJobResult', dmCtId: job.dmCtId, published: true, generated: true, finalizeError: null });
    const listed = await client.graphql('{ jobs(kind: assemble) { ctId costCredits } }');
    expect(listed.body.data.jobs).toEqual([{ ctId: queued.jobCtId, costCredits: 800 }]);
  });
});

describe('GraphQL generation', () => {
  async function publishedModel(client: HttpClient): Promise<string> {
    const res = await client.graphql(ASSEMBLE, {
      input: { title: 'Gen', generate: false, data: { label: 'Gen Data', components: [{ ctId: reused }] } },
    });
    expect(res.body.data.assemble).toMatchObject({ published: true, generated: false, packageUrl: null });
    return res.body.data.assemble.ctId;
  }

  it('generatePackage runs inside the request once; again is already_generated with the package_url', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const dmCtId = await publishedModel(client);
    const mutation = `mutation ($dm: String!) { generatePackage(dmCtId: $dm) { ${GENERATE_FIELDS} } }`;
    const first = await client.graphql(mutation, { dm: dmCtId });
    expect(first.body.errors).toBeUndefined();
    const generated = first.body.data.generatePackage;
    expect(generated).toMatchObject({
      __typename: 'Generation',
      dmCtId,
      modelUrl: `${app.url}/api/v1/catalog/dm/${dmCtId}/`,
      profile: null,
      appUrl: null,
    });
    expect((await client.get(new URL(generated.packageUrl).pathname)).status).toBe(200);
    const second = await client.graphql(mutation, { dm: dmCtId });
    expect(second.body.errors[0].extensions).toMatchObject({ code: 'already_generated', status: 409, packageUrl: generated.packageUrl });
  });

  it('generateApp with async returns a Job that completes with the application, charged through the ledger', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const dmCtId = await publishedModel(client);
    const mutation = `mutation ($dm: String!, $profile: AppProfile) { generateApp(dmCtId: $dm, profile: $profile, async: true) { ${GENERATE_FIELDS} } }`;
    const buildOnly = client.withToken((await issueKey(client, { scopes: ['build'] })).key);
    expect((await buildOnly.graphql(mutation, { dm: dmCtId })).body.errors[0].extensions).toMatchObject({ code: 'key_scope', scope: 'spend' });
    expect((await client.graphql(mutation, { dm: dmCtId, profile: 'gold' })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const balance = (await client.get('/api/v1/wallet/')).body.balance_credits;
    const res = await client.graphql(mutation, { dm: dmCtId, profile: 'enterprise' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.generateApp).toMatchObject({ __typename: 'Job', kind: 'generate_app', jobDmCtId: dmCtId });
    const job = await waitForJob(client, res.body.data.generateApp.ctId);
    expect(job).toMatchObject({
      status: 'completed',
      costCredits: 250,
      result: { __typename: 'Generation', dmCtId, profile: 'enterprise', appName: 'Gen' },
    });
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(balance - 250);
  });
});

describe('GraphQL uploadDataSource', () => {
  it('stores StatePopulation.csv and its upload job infers the four columns', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const csv = await readFile(path.join(FIXTURES, 'sdc4/sources/StatePopulation.csv'));
    const res = await uploadRequest(client, csv, 'StatePopulation.csv');
    expect(res.body.errors).toBeUndefined();
    const { dataSource, job } = res.body.data.uploadDataSource;
    expect(dataSource).toEqual({ ctId: expect.any(String), filename: 'StatePopulation.csv', size: csv.length });
    expect(job).toMatchObject({ kind: 'upload', dataSourceCtId: dataSource.ctId });
    const done = await waitForJob(client, job.ctId);
    expect(done.status).toBe('completed');
    expect(done.result.columns).toEqual(STATE_POPULATION_COLUMNS.map(({ label, data_type }) => ({ label, dataType: data_type })));
  });

  it('refuses a non-CSV with the REST error and a read-only key with key_scope', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    expect((await uploadRequest(client, 'hello', 'notes.txt')).body.errors[0].extensions).toMatchObject({ code: 'invalid_request', status: 400 });
    const readOnly = client.withToken((await issueKey(client, { scopes: ['read'] })).key);
    expect((await uploadRequest(readOnly, 'a\n1\n', 'a.csv')).body.errors[0].extensions.code).toBe('key_scope');
  });

  it('refuses a file over MAX_UPLOAD_BYTES with 413 FILE_TOO_LARGE and stores nothing; a smaller one is accepted', async () => {
    const small = await startTestApp({ maxUploadBytes: 64 });
    try {
      const { client } = await signedIn(small.url, small.services, { credits: 100_000 });
      const fits = `a,b\n${'1,2\n'.repeat(14)}`;
      const over = await uploadRequest(client, `${fits}${'3,4\n'.repeat(2)}`, 'big.csv');
      expect(over.body.errors[0].extensions).toMatchObject({ code: 'FILE_TOO_LARGE', status: 413 });
      expect(await small.services.db.query('SELECT ct_id FROM data_sources')).toEqual([]);
      const accepted = await uploadRequest(client, fits, 'fits.csv');
      expect(accepted.body.errors).toBeUndefined();
      expect(accepted.body.data.uploadDataSource.dataSource).toMatchObject({ filename: 'fits.csv', size: 60 });
    } finally {
      await small.close();
    }
  });
});
