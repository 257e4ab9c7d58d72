import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finalJob } from '../support/wait';
import { libraryComponent } from '../support/catalog-factories';
import { issueKey, signedIn, STATE_POPULATION_COLUMNS } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { JOB_FIELDS, subscribe } from '../support/subscriptions';
import { failInserts } from '../support/database';

const ASSEMBLE = '/api/v1/dmgen/assemble/';
const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const MIXED_PRICE = 500 + 3 * 100; // model + 2 new components + 1 new cluster

let app: TestApp;
let reused: string;
beforeAll(async () => {
  // A short pause after each step, so a subscriber attached after the 202 still sees the steps happen.
  app = await startTestApp({ appDownloadCredits: 250, pipelineStepDelayMs: 150 });
  reused = (await libraryComponent(app.services, { label: 'Reused Name' })).ctId;
});
afterAll(() => app.close());

const mixedBody = (extra: Record<string, unknown> = {}) => ({
  title: 'Vitals',
  data: {
    label: 'Vitals Data',
    components: [{ label: 'Pulse', data_type: 'XdCount', units: 'beats/min' }, { ct_id: reused }],
    clusters: [{ label: 'Observation', components: [{ label: 'Observed at', data_type: 'XdTemporal', description: 'When.' }] }],
  },
  ...extra,
});

describe('mixed assembly', () => {
  it('answers 202 with a job, runs every step in order (seen over a WebSocket subscription) and completes with links', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const key = await issueKey(client, { scopes: ['build', 'spend'] });
    const res = await client.withToken(key.key).post(ASSEMBLE, mixedBody());
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ mode: 'mixed', estimated_cost_credits: MIXED_PRICE });
    expect(res.body.job_url).toBe(`${app.url}/api/v1/jobs/${res.body.job_ct_id}/`);
    expect(res.body.task_id).toEqual(expect.any(String));
    expect(res.body.data_source_ct_id).toEqual(expect.any(String));

    const sub = subscribe(
      app.url,
      `subscription($id: String!) { jobUpdated(ctId: $id) { ${JOB_FIELDS} } }`,
      'jobUpdated',
      { token: key.key },
      { id: res.body.job_ct_id },
    );
    const final = await sub.until((j) => j.status === 'completed' || j.status === 'failed');
    await sub.done;
    expect(final.status).toBe('completed');
    const steps = sub.items.map((j) => j.step).filter((s, i, all) => s !== null && s !== all[i - 1]);
    const full = ['parsing', 'parsed', 'agent_processing', 'modeling', 'finalizing', 'publishing', 'generating', 'done'];
    // The first item is the state when we subscribed; from there every step arrives, in pipeline order.
    expect(steps.length).toBeGreaterThanOrEqual(5);
    expect(full.slice(full.indexOf(steps[0]))).toEqual(steps);
    for (const j of sub.items.slice(0, -1)) expect(['queued', 'running']).toContain(j.status);

    const job = (await client.get(`/api/v1/jobs/${res.body.job_ct_id}/`)).body;
    expect(job).toMatchObject({
      kind: 'assemble',
      status: 'completed',
      step: 'done',
      cost_credits: MIXED_PRICE,
      error: null,
      data_source_ct_id: res.body.data_source_ct_id,
    });
    expect(job.result).toMatchObject({ dm_ct_id: job.dm_ct_id, published: true, generated: true });
    for (const link of ['model_url', 'catalog_url', 'package_url']) expect(job.result[link]).toMatch(/^http/);
    expect((await client.get(new URL(job.result.package_url).pathname)).status).toBe(200);
    const statuses = await app.services.db.query(`SELECT DISTINCT status FROM components WHERE mint_key LIKE $1`, [`job:${job.ct_id}:%`]);
    expect(statuses).toEqual([{ status: 'published' }]);
    const [{ count }] = await app.services.db.query("SELECT count(*)::int FROM ledger_entries WHERE user_id = $1 AND kind = 'charge'", [user.id]);
    expect(count).toBe(1);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(5000 - MIXED_PRICE);
  });

  it('checks the whole amount before the pipeline: 402, key limit 403, missing spend 403 — and no job', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: MIXED_PRICE - 1 });
    const broke = await client.post(ASSEMBLE, mixedBody());
    expect(broke.status).toBe(402);
    expect(broke.body).toMatchObject({ error_type: 'insufficient_funds', estimated_cost_credits: MIXED_PRICE, balance_credits: MIXED_PRICE - 1 });
    await app.services.ledger.credit(user.id, 10000, 'top up');
    const limited = await issueKey(client, { spend_limit_credits: MIXED_PRICE - 1 });
    const over = await client.withToken(limited.key).post(ASSEMBLE, mixedBody());
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ error_type: 'key_spend_limit', spend_limit_credits: MIXED_PRICE - 1, estimated_cost_credits: MIXED_PRICE });
    const buildOnly = await issueKey(client, { scopes: ['build'] });
    expect((await client.withToken(buildOnly.key).post(ASSEMBLE, mixedBody())).body.error_type).toBe('key_scope');
    expect((await client.get('/api/v1/jobs/')).body).toEqual([]);
  });

  it('leaves everything in draft with publish false', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const res = await client.post(ASSEMBLE, mixedBody({ publish: false }));
    const job = await finalJob(client, res.body.job_ct_id);
    expect(job).toMatchObject({ status: 'completed', result: { published: false, generated: false, package_url: null } });
    const [model] = await app.services.db.query('SELECT published FROM data_models WHERE ct_id = $1', [job.dm_ct_id]);
    expect(model.published).toBe(false);
  });

  it('fails before the model exists and charges nothing', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    await failInserts(app.services.db, 'components', 'label', 'Explodes', 'minting service down');
    const res = await client.post(ASSEMBLE, { title: 'T', data: { label: 'R', components: [{ label: 'Explodes', data_type: 'XdString' }] } });
    const job = await finalJob(client, res.body.job_ct_id);
    expect(job.status).toBe('failed');
    expect(job.error).toEqual(expect.any(String));
    expect(job.cost_credits).toBe(0);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(5000);
    const [{ count }] = await app.services.db.query("SELECT count(*)::int FROM ledger_entries WHERE user_id = $1 AND kind = 'charge'", [user.id]);
    expect(count).toBe(0);
  });
});

describe('a failing finalize keeps the model links and the charge', () => {
  it('reports finalize_error when generating fails', async () => {
    // A storage directory below a regular file: every write fails with ENOTDIR.
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'sdc-broken-')), 'not-a-directory');
    await writeFile(file, 'x');
    const broken = await startTestApp({ storageDir: path.join(file, 'storage') });
    try {
      const { client } = await signedIn(broken.url, broken.services, { credits: 5000 });
      const res = await client.post(ASSEMBLE, { title: 'T', data: { label: 'R', components: [{ label: 'X', data_type: 'XdString' }] } });
      expect(res.status).toBe(202);
      const job = await finalJob(client, res.body.job_ct_id);
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/^finalize_error: /);
      expect(job.result).toMatchObject({ published: true, generated: false, dm_ct_id: job.dm_ct_id });
      expect(job.result.finalize_error).toEqual(expect.any(String));
      expect(job.result.model_url).toMatch(/^http/);
      expect(job.cost_credits).toBe(600);
    } finally {
      await broken.close();
    }
  });
});

describe('the job resource', () => {
  it('lists newest first with kind and data_source filters; owner or staff only (others 404)', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 10000 });
    const first = await client.post(ASSEMBLE, mixedBody({ publish: false }));
    const second = await client.post(ASSEMBLE, mixedBody({ publish: false }));
    const listed = (await client.get('/api/v1/jobs/')).body;
    expect(listed.map((j: { ct_id: string }) => j.ct_id)).toEqual([second.body.job_ct_id, first.body.job_ct_id]);
    expect((await client.get('/api/v1/jobs/?kind=upload')).body).toEqual([]);
    expect((await client.get('/api/v1/jobs/?kind=nonsense')).status).toBe(400);
    const byData = (await client.get(`/api/v1/jobs/?data_source=${first.body.data_source_ct_id}`)).body;
    expect(byData.map((j: { ct_id: string }) => j.ct_id)).toEqual([first.body.job_ct_id]);

    const stranger = await signedIn(app.url, app.services, { credits: 100_000 });
    const hidden = await stranger.client.get(`/api/v1/jobs/${first.body.job_ct_id}/`);
    expect(hidden.status).toBe(404);
    expect((await stranger.client.get('/api/v1/jobs/')).body).toEqual([]);
    const staff = await signedIn(app.url, app.services, { staff: true });
    expect((await staff.client.get(`/api/v1/jobs/${first.body.job_ct_id}/`)).status).toBe(200);
    await finalJob(client, second.body.job_ct_id);
  });

  it("never streams someone else's job to a subscriber", async () => {
    const owner = await signedIn(app.url, app.services, { credits: 5000 });
    const other = await signedIn(app.url, app.services, { credits: 100_000 });
    const otherKey = await issueKey(other.client);
    const mine = subscribe(app.url, `subscription { myJobs { ${JOB_FIELDS} } }`, 'myJobs', { token: otherKey.key });
    const res = await owner.client.post(ASSEMBLE, mixedBody({ publish: false }));
    const spy = subscribe(
      app.url,
      `subscription($id: String!) { jobUpdated(ctId: $id) { ${JOB_FIELDS} } }`,
      'jobUpdated',
      { token: otherKey.key },
      { id: res.body.job_ct_id },
    );
    await spy.done;
    expect(spy.items).toEqual([]);
    expect(JSON.stringify(spy.errors)).toMatch(/not_found/);
    await finalJob(owner.client, res.body.job_ct_id);
    await new Promise((r) => setTimeout(r, 300));
    expect(mine.items).toEqual([]);
    await mine.close();
  });

  it("streams any job to staff who name it, but a staff member's myJobs carries only their own", async () => {
    const owner = await signedIn(app.url, app.services, { credits: 5000 });
    const staff = await signedIn(app.url, app.services, { staff: true });
    const staffKey = await issueKey(staff.client);
    const theirs = subscribe(app.url, `subscription { myJobs { ${JOB_FIELDS} } }`, 'myJobs', { token: staffKey.key });
    const res = await owner.client.post(ASSEMBLE, mixedBody({ publish: false }));
    const watched = subscribe(
      app.url,
      `subscription($id: String!) { jobUpdated(ctId: $id) { ${JOB_FIELDS} } }`,
      'jobUpdated',
      { token: staffKey.key },
      { id: res.body.job_ct_id },
    );
    await watched.done;
    expect(watched.errors).toEqual([]);
    expect(watched.items.at(-1)).toMatchObject({ ctId: res.body.job_ct_id, status: 'completed' });
    await new Promise((r) => setTimeout(r, 300));
    expect(theirs.items).toEqual([]);
    await theirs.close();
  });
});

describe('uploads', () => {
  it('turns StatePopulation.csv into a draft model with inferred types, publishing nothing, charging its mints', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 1000 });
    const form = new FormData();
    form.append('file', new Blob([await readFile(path.join(FIXTURES, 'sdc4/sources/StatePopulation.csv'))]), 'StatePopulation.csv');
    const res = await client.post('/api/v1/uploader/api/data-sources/', form);
    expect(res.status).toBe(202);
    expect(res.body.data_source).toMatchObject({ filename: 'StatePopulation.csv' });
    expect(res.body.job).toMatchObject({ kind: 'upload', status: 'queued', data_source_ct_id: res.body.data_source.ct_id });
    const job = await finalJob(client, res.body.job.ct_id);
    expect(job.status).toBe('completed');
    expect(job.result.columns).toEqual(STATE_POPULATION_COLUMNS);
    const components = await app.services.db.query('SELECT label, data_type, status FROM components WHERE owner_id = $1 ORDER BY id', [user.id]);
    expect(components).toEqual([
      { label: 'State', data_type: 'XdString', status: 'draft' },
      { label: 'Total Population', data_type: 'XdCount', status: 'draft' },
      { label: 'Adult Population', data_type: 'XdCount', status: 'draft' },
      { label: 'Adult Population Percentage', data_type: 'XdQuantity', status: 'draft' },
    ]);
    const [model] = await app.services.db.query('SELECT published FROM data_models WHERE ct_id = $1', [job.dm_ct_id]);
    expect(model.published).toBe(false);
    // Four columns minted and a model: 4 × 100 + 500, the price of the assembly it is.
    expect(job.cost_credits).toBe(900);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(100);
  });

  it.each([
    ['an empty file', Buffer.alloc(0), 'empty.csv'],
    ['a binary file', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff]), 'data.csv'],
    ['invalid UTF-8', Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0xc3, 0x28, 0x2c, 0x31, 0x0a]), 'bad.csv'],
    ['not a CSV', Buffer.from('hello'), 'notes.txt'],
  ])('refuses %s at once with 400', async (_name, content, filename) => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const form = new FormData();
    form.append('file', new Blob([content]), filename);
    const res = await client.post('/api/v1/uploader/api/data-sources/', form);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('refuses a file over MAX_UPLOAD_BYTES with 413 and accepts one of exactly that size', async () => {
    const small = await startTestApp({ maxUploadBytes: 64 });
    try {
      const { client } = await signedIn(small.url, small.services, { credits: 100_000 });
      const post = (text: string) => {
        const form = new FormData();
        form.append('file', new Blob([text]), 'limit.csv');
        return client.post('/api/v1/uploader/api/data-sources/', form);
      };
      const over = await post(`a,b\n${'1,2\n'.repeat(20)}`);
      expect(over.status).toBe(413);
      expect((await small.services.db.query('SELECT count(*)::int AS n FROM data_sources'))[0].n).toBe(0);
      const exact = `a,b\n${'1,2\n'.repeat(15)}`;
      expect(Buffer.byteLength(exact)).toBe(64);
      expect((await post(exact)).status).toBe(202);
    } finally {
      await small.close();
    }
  });

  it('fails the job clearly for a CSV with a header and no rows', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const form = new FormData();
    form.append('file', new Blob(['a,b,c\n']), 'header-only.csv');
    const res = await client.post('/api/v1/uploader/api/data-sources/', form);
    const job = await finalJob(client, res.body.job.ct_id);
    expect(job).toMatchObject({ status: 'failed', error: 'The CSV has a header but no data rows.' });
  });

  it('needs build and a file', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const readOnly = await issueKey(client, { scopes: ['read'] });
    const form = new FormData();
    form.append('file', new Blob(['a\n1\n']), 'a.csv');
    expect((await client.withToken(readOnly.key).post('/api/v1/uploader/api/data-sources/', form)).body.error_type).toBe('key_scope');
    const empty = new FormData();
    empty.append('other', 'x');
    expect((await client.post('/api/v1/uploader/api/data-sources/', empty)).status).toBe(400);
  });
});

describe('generation', () => {
  async function publishedModel(client: HttpClient) {
    const res = await client.post(ASSEMBLE, { title: 'Gen', generate: false, data: { label: 'Gen Data', components: [{ ct_id: reused }] } });
    expect(res.status).toBe(200);
    return res.body.ct_id as string;
  }

  it('generates a package inside the request once; a second request answers 409 with the package_url', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const ctId = await publishedModel(client);
    const first = await client.post(`/api/v1/dmgen/dms/${ctId}/generate/`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ dm_ct_id: ctId });
    expect(first.body.package_url).toMatch(/^http/);
    const second = await client.post(`/api/v1/dmgen/dms/${ctId}/generate/`);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error_type: 'already_generated', package_url: first.body.package_url });
  });

  it('runs as a job with ?async=1 and carries the same result', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const ctId = await publishedModel(client);
    const res = await client.post(`/api/v1/dmgen/dms/${ctId}/generate/?async=1`);
    expect(res.status).toBe(202);
    const job = await finalJob(client, res.body.job_ct_id);
    expect(job).toMatchObject({ kind: 'generate_package', status: 'completed', dm_ct_id: ctId, result: { dm_ct_id: ctId } });
    expect(job.result.package_url).toMatch(/^http/);
  });

  it('generate_app needs spend, charges APP_DOWNLOAD_CREDITS through the ledger and returns profile, app_name, app_url', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const ctId = await publishedModel(client);
    const buildKey = await issueKey(client, { scopes: ['build'] });
    const refused = await client.withToken(buildKey.key).post(`/api/v1/dmgen/dms/${ctId}/generate_app/`);
    expect(refused.body).toMatchObject({ error_type: 'key_scope', scope: 'spend' });
    const balance = (await client.get('/api/v1/wallet/')).body.balance_credits;
    const res = await client.post(`/api/v1/dmgen/dms/${ctId}/generate_app/`, { async: true, profile: 'enterprise' });
    expect(res.status).toBe(202);
    const job = await finalJob(client, res.body.job_ct_id);
    expect(job).toMatchObject({ kind: 'generate_app', status: 'completed', cost_credits: 250 });
    expect(job.result).toMatchObject({ profile: 'enterprise', app_name: 'Gen' });
    const zip = await fetch(job.result.app_url, { headers: { authorization: `Token ${(await issueKey(client)).key}` } });
    expect(zip.status).toBe(200);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(balance - 250);
    const inline = await client.post(`/api/v1/dmgen/dms/${ctId}/generate_app/`, { profile: 'os' });
    expect(inline.status).toBe(200);
    expect(inline.body).toMatchObject({ profile: 'os', dm_ct_id: ctId });
  });

  it('refuses an unknown application profile with 400 before charging (GraphQL: graphql-assembly.test.ts)', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const ctId = await publishedModel(client);
    const balance = (await client.get('/api/v1/wallet/')).body.balance_credits;
    const rest = await client.post(`/api/v1/dmgen/dms/${ctId}/generate_app/`, { profile: 'cloud' });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ error_type: 'invalid_request', details: { profile: ['os or enterprise'] } });
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(balance);
  });

  it('refuses an async generate_app up front when the wallet or the key limit cannot cover it (402 / 403): nothing charged, no job', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 500 + 249 });
    const ctId = await publishedModel(client);
    const generateApp = `/api/v1/dmgen/dms/${ctId}/generate_app/?async=1`;
    const broke = await client.post(generateApp);
    expect(broke.status).toBe(402);
    expect(broke.body).toMatchObject({ error_type: 'insufficient_funds', estimated_cost_credits: 250, balance_credits: 249 });

    await app.services.ledger.credit(user.id, 10000, 'top up');
    const atLimit = await issueKey(client, { spend_limit_credits: 250 });
    await app.services.db.transaction((m) =>
      app.services.ledger.charge({ userId: user.id, amount: 250, reason: 'reach the key limit', apiKeyId: atLimit.id }, m),
    );
    const over = await client.withToken(atLimit.key).post(generateApp);
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ error_type: 'key_spend_limit', spend_limit_credits: 250, spent_credits: 250, estimated_cost_credits: 250 });
    const overGraphQL = await client
      .withToken(atLimit.key)
      .graphql('mutation ($dm: String!) { generateApp(dmCtId: $dm, async: true) { __typename } }', { dm: ctId });
    expect(overGraphQL.body.errors[0].extensions).toMatchObject({
      code: 'key_spend_limit',
      status: 403,
      spentCredits: 250,
      estimatedCostCredits: 250,
    });

    expect((await client.get('/api/v1/jobs/?kind=generate_app')).body).toEqual([]);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(249 + 10000 - 250);
    const keys = (await client.get('/api/v1/auth/api-tokens/')).body as Array<{ id: number; spent_credits: number }>;
    expect(keys.find((k) => k.id === atLimit.id)?.spent_credits).toBe(250);
    const charges = await app.services.db.query('SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = $2', [
      user.id,
      'charge',
    ]);
    expect(charges[0].n).toBe(2);
  });

  it('refuses drafts and other owners', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const draft = await client.post(ASSEMBLE, { title: 'Draft', publish: false, data: { label: 'D', components: [{ ct_id: reused }] } });
    expect((await client.post(`/api/v1/dmgen/dms/${draft.body.ct_id}/generate/`)).body.error_type).toBe('not_published');
    const ctId = await publishedModel(client);
    const stranger = await signedIn(app.url, app.services, { credits: 5000 });
    expect((await stranger.client.post(`/api/v1/dmgen/dms/${ctId}/generate/`)).status).toBe(403);
    expect((await stranger.client.post(`/api/v1/dmgen/dms/${draft.body.ct_id}/generate/`)).status).toBe(404);
  });
});
