import { issueKey, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

const TOKENS = '/api/v1/auth/api-tokens/';
const DAY = 24 * 3600 * 1000;
const UNAUTHENTICATED = { error: 'Authentication credentials were not provided or are not valid.', error_type: 'not_authenticated' };

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('creating keys (session only)', () => {
  it('returns the key once with the default policy, stores only hash and prefix', async () => {
    const { client, user } = await signedIn(app.url, app.services);
    const res = await client.post(TOKENS, { name: 'laptop' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'laptop',
      scopes: ['read', 'build', 'spend'],
      spend_limit_credits: null,
      spent_credits: 0,
      expires_at: null,
      expired: false,
    });
    expect(res.body.key).toMatch(/^sdc_[A-Za-z0-9]{48}$/);
    const [row] = await app.services.db.query('SELECT key_hash, prefix FROM api_keys WHERE user_id = $1', [user.id]);
    expect(row.prefix).toBe(res.body.key.slice(0, 12));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await app.services.db.query('SELECT * FROM api_keys'))).not.toContain(res.body.key);
    const listed = await client.get(TOKENS);
    expect(listed.body[0]).not.toHaveProperty('key');
  });

  it('keeps read in every key and orders scopes', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.post(TOKENS, { name: 'ci', scopes: ['spend'], spend_limit_credits: 500, expires_in_days: 30 });
    expect(res.status).toBe(201);
    expect(res.body.scopes).toEqual(['read', 'spend']);
    expect(res.body.spend_limit_credits).toBe(500);
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
  });

  it('refuses a malformed body with 400 naming the field (the rule table: test/unit/parsers/keys.parser.test.ts)', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.post(TOKENS, { name: 'a', expires_in_days: 3661 });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty('expires_in_days');
  });

  it('accepts the bounds 1 and 3660 days and a zero limit', async () => {
    const { client } = await signedIn(app.url, app.services);
    expect((await client.post(TOKENS, { name: 'a', expires_in_days: 1 })).status).toBe(201);
    expect((await client.post(TOKENS, { name: 'b', expires_in_days: 3660, spend_limit_credits: 0 })).status).toBe(201);
  });

  it('refuses a duplicate active name, and frees it once revoked or expired', async () => {
    const { client } = await signedIn(app.url, app.services);
    const first = await issueKey(client, { name: 'tool', expires_in_days: 1 });
    expect((await client.post(TOKENS, { name: 'tool' })).status).toBe(400);
    app.clock.advance(DAY + 1000);
    try {
      const second = await client.post(TOKENS, { name: 'tool' });
      expect(second.status).toBe(201);
      await client.post(`${TOKENS}${second.body.id}/revoke/`);
      expect((await client.post(TOKENS, { name: 'tool' })).status).toBe(201);
      expect(first.id).toBeDefined();
    } finally {
      app.clock.advance(-(DAY + 1000));
    }
  });

  it('allows 25 active keys, refuses the 26th, and frees a slot on revocation', async () => {
    const { client } = await signedIn(app.url, app.services);
    const keys = [];
    for (let i = 0; i < 25; i++) keys.push(await issueKey(client, { name: `k${i}` }));
    const refused = await client.post(TOKENS, { name: 'k25' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/25/);
    await client.post(`${TOKENS}${keys[0].id}/revoke/`);
    expect((await client.post(TOKENS, { name: 'k25' })).status).toBe(201);
  });

  it('refuses creation and rotation with a key of any scope: 403 session_required', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = await issueKey(client);
    const viaKey = client.withToken(key.key);
    const create = await viaKey.post(TOKENS, { name: 'x' });
    expect(create.status).toBe(403);
    expect(create.body.error_type).toBe('session_required');
    const rotate = await viaKey.post(`${TOKENS}${key.id}/rotate/`);
    expect(rotate.status).toBe(403);
    expect(rotate.body.error_type).toBe('session_required');
  });

  it('needs the CSRF token for unsafe session requests', async () => {
    const { client } = await signedIn(app.url, app.services);
    client.sendCsrf = false;
    const res = await client.post(TOKENS, { name: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.error_type).toBe('csrf_failed');
    expect((await client.request('POST', TOKENS, { name: 'x' }, { 'x-csrftoken': 'wrong' })).status).toBe(403);
  });
});

describe('listing', () => {
  it('lists newest first with revoked keys, from a session or any key, never the legacy key', async () => {
    const { client } = await signedIn(app.url, app.services);
    const a = await issueKey(client, { name: 'a' });
    const b = await issueKey(client, { name: 'b', scopes: ['read'] });
    await client.post(`${TOKENS}${a.id}/revoke/`);
    expect((await client.post('/api/v1/auth/token/')).status).toBe(201);
    const viaReadKey = await client.withToken(b.key).get(TOKENS);
    expect(viaReadKey.status).toBe(200);
    expect(viaReadKey.body.map((k: { name: string }) => k.name)).toEqual(['b', 'a']);
    expect(viaReadKey.body[1]).toMatchObject({ status: 'revoked', revoked: true, expired: false });
  });

  it("never shows another user's keys", async () => {
    const one = await signedIn(app.url, app.services);
    const other = await signedIn(app.url, app.services);
    await issueKey(one.client, { name: 'mine' });
    const res = await other.client.get(TOKENS);
    expect(res.body).toEqual([]);
  });
});

describe('rotation', () => {
  it('revokes the old key, issues a new one with the same policy and a restarted spent count', async () => {
    const { client, user } = await signedIn(app.url, app.services);
    const old = await issueKey(client, { name: 'rot', scopes: ['build'], spend_limit_credits: 1000, expires_in_days: 10 });
    await app.services.db.query('UPDATE api_keys SET spent_credits = 300 WHERE id = $1', [old.id]);
    const res = await client.post(`${TOKENS}${old.id}/rotate/`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'rot',
      scopes: ['read', 'build'],
      spend_limit_credits: 1000,
      spent_credits: 0,
      expires_at: old.expires_at,
    });
    expect(res.body.key).not.toBe(old.key);
    expect((await client.withToken(old.key).get(TOKENS)).status).toBe(401);
    expect((await client.withToken(res.body.key).get(TOKENS)).status).toBe(200);
    const rows = await app.services.db.query('SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE user_id = $1 ORDER BY id', [user.id]);
    expect(rows.map((r: { revoked: boolean }) => r.revoked)).toEqual([true, false]);
  });

  it('cannot rotate an expired or revoked key, nor someone else’s', async () => {
    const { client } = await signedIn(app.url, app.services);
    const expiring = await issueKey(client, { expires_in_days: 1 });
    const revoked = await issueKey(client);
    await client.post(`${TOKENS}${revoked.id}/revoke/`);
    app.clock.advance(DAY + 1000);
    try {
      const expiredRes = await client.post(`${TOKENS}${expiring.id}/rotate/`);
      expect(expiredRes.status).toBe(409);
      expect(expiredRes.body.status).toBe('expired');
    } finally {
      app.clock.advance(-(DAY + 1000));
    }
    expect((await client.post(`${TOKENS}${revoked.id}/rotate/`)).status).toBe(409);
    const stranger = await signedIn(app.url, app.services);
    expect((await stranger.client.post(`${TOKENS}${expiring.id}/rotate/`)).status).toBe(404);
  });
});

describe('revocation and expiry', () => {
  it('revokes with the key itself; it then stops authenticating with the common 401 body', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = await issueKey(client, { scopes: ['read'] });
    const viaKey = client.withToken(key.key);
    const res = await viaKey.post(`${TOKENS}${key.id}/revoke/`);
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBe(true);
    const after = await viaKey.get(TOKENS);
    expect(after.status).toBe(401);
    expect(after.body).toEqual(UNAUTHENTICATED);
  });

  it('stops an expired key at the instant of expiry; expired → revoked stays listed', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = await issueKey(client, { name: 'short', expires_in_days: 1 });
    const viaKey = client.withToken(key.key);
    expect((await viaKey.get(TOKENS)).status).toBe(200);
    app.clock.advance(DAY);
    try {
      const expired = await viaKey.get(TOKENS);
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual(UNAUTHENTICATED);
      const listed = (await client.get(TOKENS)).body.find((k: { id: number }) => k.id === key.id);
      expect(listed).toMatchObject({ expired: true, status: 'expired' });
      expect((await client.post(`${TOKENS}${key.id}/revoke/`)).status).toBe(200);
      const after = (await client.get(TOKENS)).body.find((k: { id: number }) => k.id === key.id);
      expect(after).toMatchObject({ status: 'revoked' });
    } finally {
      app.clock.advance(-DAY);
    }
  });

  it('answers unknown, malformed, revoked and expired keys identically', async () => {
    const anon = new HttpClient(app.url);
    for (const header of ['Token sdc_doesnotexist', 'Bearer x', 'Token', `Token ${'x'.repeat(2000)}`]) {
      const res = await anon.get(TOKENS, { authorization: header });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
    }
    const none = await anon.get(TOKENS);
    expect(none.status).toBe(401);
    expect(none.body).toEqual(UNAUTHENTICATED);
  });
});

describe('scope enforcement', () => {
  it('refuses a read-only key on session-only wallet auto-reload with session_required, and reads the wallet', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 1234 });
    const key = await issueKey(client, { scopes: ['read'] });
    const viaKey = client.withToken(key.key);
    const wallet = await viaKey.get('/api/v1/wallet/');
    expect(wallet.status).toBe(200);
    expect(wallet.body).toMatchObject({ balance: '1.234', balance_credits: 1234, auto_reload: { enabled: false } });
    expect(typeof wallet.body.updated_at).toBe('string');
    const patch = await viaKey.patch('/api/v1/wallet/auto-reload/', { enabled: true, amount_credits: 10 });
    expect(patch.status).toBe(403);
    expect(patch.body.error_type).toBe('session_required');
    const bySession = await client.patch('/api/v1/wallet/auto-reload/', { enabled: true, threshold_credits: 100, amount_credits: 5000 });
    expect(bySession.status).toBe(200);
    expect(bySession.body.auto_reload).toEqual({ enabled: true, threshold_credits: 100, amount_credits: 5000 });
    for (const nothing of [{}, { enable: false }]) {
      const refused = await client.patch('/api/v1/wallet/auto-reload/', nothing);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('Send at least one of enabled, threshold_credits, amount_credits.');
    }
    const gql = await client.graphql('mutation { updateAutoReload(input: {}) { autoReload { enabled } } }');
    expect(gql.body.errors[0]).toMatchObject({
      message: 'Send at least one of enabled, threshold_credits, amount_credits.',
      extensions: { status: 400 },
    });
    expect((await client.get('/api/v1/wallet/')).body.auto_reload).toEqual({ enabled: true, threshold_credits: 100, amount_credits: 5000 });
  });
});

describe('legacy key', () => {
  it('carries every scope, is not listed, and stops when replaced by a named key', async () => {
    const { client } = await signedIn(app.url, app.services);
    const legacy = await client.post('/api/v1/auth/token/');
    expect(legacy.status).toBe(201);
    const viaLegacy = client.withToken(legacy.body.token);
    expect((await viaLegacy.get('/api/v1/auth/me/')).status).toBe(200);
    expect((await viaLegacy.post('/api/v1/auth/token/')).body.error_type).toBe('session_required');
    expect((await client.get(TOKENS)).body).toEqual([]);
    await issueKey(client, { name: 'named' });
    expect((await viaLegacy.get('/api/v1/auth/me/')).status).toBe(401);
  });
});
