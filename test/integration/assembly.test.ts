import { libraryComponent } from '../support/catalog-factories';
import { creditsToUsd } from '../../src/money';
import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { failInserts } from '../support/database';

const ESTIMATE = '/api/v1/dmgen/assemble/estimate/';
const ASSEMBLE = '/api/v1/dmgen/assemble/';
const REUSE_PRICE = 600; // model 500 + one new cluster 100

let app: TestApp;
let reusable: string[];
beforeAll(async () => {
  // The double-spend races send 50 requests from one caller at once; the per-caller cap is tested in freeze-cpu.
  app = await startTestApp({ maxConcurrentRequestsPerCaller: 64 });
  reusable = [];
  for (let i = 0; i < 3; i++) reusable.push((await libraryComponent(app.services, { label: `Reusable ${i}` })).ctId);
});
afterAll(() => app.close());

/** A reuse-path body: root with two reused components and one new cluster holding a third. */
const reuseBody = (extra: Record<string, unknown> = {}) => ({
  title: 'Population',
  data: {
    label: 'Population Data',
    components: [{ ct_id: reusable[0] }, { ct_id: reusable[1] }],
    clusters: [{ label: 'Details', components: [{ ct_id: reusable[2] }] }],
  },
  generate: false,
  ...extra,
});

async function ledgerSum(userId: number): Promise<number> {
  const [row] = await app.services.db.query('SELECT coalesce(sum(amount_credits), 0)::bigint AS s FROM ledger_entries WHERE user_id = $1', [userId]);
  return Number(row.s);
}

describe('estimate', () => {
  it('prices a reuse assembly, charges nothing and reports wallet and key', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 1000 });
    const res = await client.post(ESTIMATE, reuseBody());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: 'reuse',
      model_credits: 500,
      mint_credits: 100,
      total_credits: REUSE_PRICE,
      total_usd: '0.600',
      problems: [],
      wallet: { balance_credits: 1000, can_pay: true },
      key: null,
    });
    expect(res.body.estimate_id).toMatch(/^[0-9a-f]{12}$/);
    expect(res.body.reuse.map((r: { path: string }) => r.path)).toEqual([
      'data.components[0]',
      'data.components[1]',
      'data.clusters[0].components[0]',
    ]);
    expect(res.body.mint).toEqual([{ path: 'data.clusters[0]', label: 'Details', data_type: 'Cluster' }]);
    expect(await ledgerSum(user.id)).toBe(1000);

    const key = await issueKey(client, { scopes: ['build'], spend_limit_credits: 500 });
    const viaKey = await client.withToken(key.key).post(ESTIMATE, reuseBody());
    expect(viaKey.body.key).toEqual({
      scopes: ['read', 'build'],
      can_spend: false,
      spend_limit_credits: 500,
      spent_credits: 0,
      remaining_credits: 500,
      within_limit: false,
    });
  });

  it('is mixed only when a component must be minted, and counts new components at any depth', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.post(ESTIMATE, {
      title: 'Mixed',
      data: {
        label: 'Root',
        components: [{ label: 'Age', data_type: 'XdCount', units: 'years', description: '' }],
        clusters: [{ label: 'A', clusters: [{ label: 'B', components: [{ label: 'Flag', data_type: 'XdBoolean' }, { ct_id: reusable[0] }] }] }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'mixed', model_credits: 500, mint_credits: 400, total_credits: 900, total_usd: '0.900' });
    expect(res.body.mint.map((m: { path: string }) => m.path).sort()).toEqual(
      ['data.clusters[0]', 'data.clusters[0].clusters[0]', 'data.clusters[0].clusters[0].components[0]', 'data.components[0]'].sort(),
    );
  });

  it('keeps the estimate id stable under description/units normalisation and changes it with the tree', async () => {
    const { client } = await signedIn(app.url, app.services);
    const a = await client.post(ESTIMATE, { title: 'T', data: { label: 'R', components: [{ label: 'X', data_type: 'XdString', units: '' }] } });
    const b = await client.post(ESTIMATE, { title: 'T', publish: false, data: { label: 'R', components: [{ label: 'X', data_type: 'XdString' }] } });
    const c = await client.post(ESTIMATE, { title: 'T', data: { label: 'R', components: [{ label: 'Y', data_type: 'XdString' }] } });
    expect(a.body.estimate_id).toBe(b.body.estimate_id);
    expect(a.body.estimate_id).not.toBe(c.body.estimate_id);
  });

  it('pins the documented test vector', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.post(ESTIMATE, {
      title: 'Vitals',
      data: { label: 'Vitals Data', components: [{ label: 'Pulse', data_type: 'XdCount', units: 'beats/min' }] },
    });
    // sha256('{"title":"Vitals","tree":{"clusters":[],"components":[{"data_type":"XdCount","label":"Pulse","units":"beats/min"}],"label":"Vitals Data"}}')
    expect(res.body.estimate_id).toBe('4c9063786b33');
  });

  it('refuses a malformed tree with 400 naming the path (the rule table: test/unit/parsers/assembly.parser.test.ts)', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.post(ESTIMATE, { title: 'T', data: { label: 'R', components: [{ label: 'L' }] } });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.details).toHaveProperty(['data.components[0]']);
  });

  it('bounds hostile trees: 10,001 nodes and depth 65 are refused clearly', async () => {
    const { client } = await signedIn(app.url, app.services);
    const wide = {
      title: 'T',
      data: { label: 'R', components: Array.from({ length: 10001 }, (_, i) => ({ label: `c${i}`, data_type: 'XdString' })) },
    };
    const res = await client.post(ESTIMATE, wide);
    expect(res.status).toBe(400);
    expect(res.body.details.data[0]).toMatch(/10000 nodes/);
    let deep: Record<string, unknown> = { label: 'leaf', components: [{ label: 'x', data_type: 'XdString' }] };
    for (let i = 0; i < 70; i++) deep = { label: `l${i}`, clusters: [deep] };
    const deepRes = await client.post(ESTIMATE, { title: 'T', data: deep });
    expect(deepRes.status).toBe(400);
    expect(JSON.stringify(deepRes.body.details)).toMatch(/deeper than 64/);
  });

  it('lists problems: unknown, unpublished, retired with successor; allow_retired accepts', async () => {
    const { client, user } = await signedIn(app.url, app.services);
    const draft = await libraryComponent(app.services, { status: 'draft', ownerId: user.id });
    const successor = await libraryComponent(app.services);
    const old = await libraryComponent(app.services);
    await app.services.catalog.retire(old.ctId, successor.ctId);
    const body = { title: 'T', data: { label: 'R', components: [{ ct_id: 'nosuchctid000' }, { ct_id: draft.ctId }, { ct_id: old.ctId }] } };
    const res = await client.post(ESTIMATE, body);
    expect(res.body.problems).toEqual([
      expect.objectContaining({ path: 'data.components[0]', problem: 'unknown', ct_id: 'nosuchctid000' }),
      expect.objectContaining({ path: 'data.components[1]', problem: 'unpublished' }),
      expect.objectContaining({ path: 'data.components[2]', problem: 'retired', successor: successor.ctId }),
    ]);
    const allowed = await client.post(ESTIMATE, { ...body, allow_retired: true });
    expect(allowed.body.problems.map((p: { problem: string }) => p.problem)).toEqual(['unknown', 'unpublished']);
  });

  it('needs build: a read-only key gets 403 key_scope', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = await issueKey(client, { scopes: ['read'] });
    const res = await client.withToken(key.key).post(ESTIMATE, reuseBody());
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_type: 'key_scope', scope: 'build', scopes: ['read'] });
  });
});

describe('assemble, reuse path', () => {
  it('builds synchronously: 200 with catalog fields, headers, the charge equal to the estimate', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const estimate = await client.post(ESTIMATE, reuseBody());
    const res = await client.post(ASSEMBLE, reuseBody({ estimate_id: estimate.body.estimate_id }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Population', published: true, generated: false, identifier: `dm-${res.body.ct_id}` });
    expect(res.body.model_url).toContain(`/api/v1/catalog/dm/${res.body.ct_id}/`);
    expect(res.body.components.length).toBeGreaterThan(0);
    expect(res.headers.get('x-sdc-estimated-cost')).toBe(creditsToUsd(estimate.body.total_credits));
    expect(res.headers.get('x-sdc-balance-remaining')).toBe(creditsToUsd(5000 - REUSE_PRICE));
    expect(res.headers.get('x-sdc-estimated-cost-credits')).toBe(String(estimate.body.total_credits));
    expect(res.headers.get('x-sdc-balance-remaining-credits')).toBe(String(5000 - REUSE_PRICE));
    expect(await ledgerSum(user.id)).toBe(5000 - REUSE_PRICE);
    const [model] = await app.services.db.query('SELECT published FROM data_models WHERE ct_id = $1', [res.body.ct_id]);
    expect(model.published).toBe(true);
  });

  it('generates the package when asked (default) and says so', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const res = await client.post(ASSEMBLE, reuseBody({ generate: undefined }));
    expect(res.status).toBe(200);
    expect(res.body.generated).toBe(true);
    const pkg = await client.get(new URL(res.body.package_url).pathname);
    expect(pkg.status).toBe(200);
  });

  it('leaves clusters and model in draft with publish false', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const res = await client.post(ASSEMBLE, reuseBody({ publish: false }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ published: false, generated: false });
    const [row] = await app.services.db.query(
      'SELECT m.published, c.status FROM data_models m JOIN clusters c ON c.id = m.root_cluster_id WHERE m.ct_id = $1',
      [res.body.ct_id],
    );
    expect(row).toEqual({ published: false, status: 'draft' });
  });

  it('answers 409 stale_estimate when the tree changed, building nothing', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const estimate = await client.post(ESTIMATE, reuseBody());
    const res = await client.post(ASSEMBLE, reuseBody({ title: 'Changed', estimate_id: estimate.body.estimate_id }));
    expect(res.status).toBe(409);
    expect(res.body.error_type).toBe('stale_estimate');
    expect(await ledgerSum(user.id)).toBe(5000);
  });

  it('refuses retired (409, naming the successor) and unknown (400, listing problems) references', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const successor = await libraryComponent(app.services);
    const old = await libraryComponent(app.services, { label: 'Old one' });
    await app.services.catalog.retire(old.ctId, successor.ctId);
    const retired = await client.post(ASSEMBLE, { title: 'T', generate: false, data: { label: 'R', components: [{ ct_id: old.ctId }] } });
    expect(retired.status).toBe(409);
    expect(retired.body.error).toContain(old.ctId);
    expect(retired.body.error).toContain(successor.ctId);
    const accepted = await client.post(ASSEMBLE, {
      title: 'T',
      generate: false,
      allow_retired: true,
      data: { label: 'R', components: [{ ct_id: old.ctId }] },
    });
    expect(accepted.status).toBe(200);
    const unknown = await client.post(ASSEMBLE, { title: 'T', data: { label: 'R', components: [{ ct_id: 'unknownctid01' }] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.problems[0]).toMatchObject({ ct_id: 'unknownctid01', problem: 'unknown' });
    expect(await ledgerSum(user.id)).toBe(5000 - 500);
  });

  it('checks spend scope, then the key limit (even when the wallet could pay), then the wallet', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 1000 });
    const buildOnly = await issueKey(client, { scopes: ['build'] });
    const noSpend = await client.withToken(buildOnly.key).post(ASSEMBLE, reuseBody());
    expect(noSpend.status).toBe(403);
    expect(noSpend.body).toMatchObject({ error_type: 'key_scope', scope: 'spend', scopes: ['read', 'build'] });

    const limited = await issueKey(client, { scopes: ['build', 'spend'], spend_limit_credits: 100 });
    const overLimit = await client.withToken(limited.key).post(ASSEMBLE, reuseBody());
    expect(overLimit.status).toBe(403);
    expect(overLimit.body).toMatchObject({
      error_type: 'key_spend_limit',
      spend_limit_credits: 100,
      spent_credits: 0,
      estimated_cost_credits: REUSE_PRICE,
    });
    expect(overLimit.body.error).toMatch(/100.*0.*600/);

    const spender = await issueKey(client, { scopes: ['build', 'spend'] });
    expect((await client.withToken(spender.key).post(ASSEMBLE, reuseBody())).status).toBe(200);
    const broke = await client.withToken(spender.key).post(ASSEMBLE, reuseBody());
    expect(broke.status).toBe(402);
    expect(broke.body).toMatchObject({
      error_type: 'insufficient_funds',
      estimated_cost_credits: REUSE_PRICE,
      balance_credits: 400,
      balance_remaining_credits: 400,
      estimated_cost: creditsToUsd(REUSE_PRICE),
      balance: '0.400',
    });
    expect(broke.headers.get('x-sdc-estimated-cost')).toBe(creditsToUsd(REUSE_PRICE));
    expect(broke.headers.get('x-sdc-balance-remaining')).toBe('0.400');
    expect(await ledgerSum(user.id)).toBe(400);
    const [{ count }] = await app.services.db.query('SELECT count(*)::int FROM data_models WHERE owner_id = $1', [user.id]);
    expect(count).toBe(1);
  });

  it('releases the hold, charging nothing, when the build fails', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    await failInserts(app.services.db, 'data_models', 'title', 'Doomed', 'disk on fire');
    const res = await client.post(ASSEMBLE, reuseBody({ title: 'Doomed' }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'The model could not be built; nothing was charged.', error_type: 'build_failed' });
    const entries = await app.services.db.query('SELECT kind, amount_credits::int AS amount FROM ledger_entries WHERE user_id = $1 ORDER BY id', [
      user.id,
    ]);
    // The price was held before the build and released when it failed: never charged.
    expect(entries).toEqual([
      { kind: 'credit', amount: 5000 },
      { kind: 'hold', amount: -REUSE_PRICE },
      { kind: 'release', amount: REUSE_PRICE },
    ]);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(5000);
  });
});

describe('charges cannot be double-spent', () => {
  it('50 concurrent assembles against a wallet that pays for exactly 7: 7 succeed, 43 get 402', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 7 * REUSE_PRICE + 599 });
    const key = await issueKey(client, { scopes: ['build', 'spend'] });
    const viaKey = client.withToken(key.key);
    const results = await Promise.all(Array.from({ length: 50 }, () => viaKey.post(ASSEMBLE, reuseBody())));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(43);
    const wallet = (await client.get('/api/v1/wallet/')).body.balance_credits;
    expect(wallet).toBe(599);
    expect(await ledgerSum(user.id)).toBe(wallet);
    const [{ count }] = await app.services.db.query('SELECT count(*)::int FROM data_models WHERE owner_id = $1', [user.id]);
    expect(count).toBe(7);
  });

  it('50 concurrent assembles against a key limited to exactly 7: 7 succeed, 43 get 403 key_spend_limit', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 100000 });
    const key = await issueKey(client, { scopes: ['build', 'spend'], spend_limit_credits: 7 * REUSE_PRICE + 599 });
    const viaKey = client.withToken(key.key);
    const results = await Promise.all(Array.from({ length: 50 }, () => viaKey.post(ASSEMBLE, reuseBody())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    expect(results.filter((r) => r.status === 403 && r.body.error_type === 'key_spend_limit')).toHaveLength(43);
    const listed = (await client.get('/api/v1/auth/api-tokens/')).body.find((k: { id: number }) => k.id === key.id);
    expect(listed.spent_credits).toBe(7 * REUSE_PRICE);
    expect(await ledgerSum(user.id)).toBe(100000 - 7 * REUSE_PRICE);
  });
});
