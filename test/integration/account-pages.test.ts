import { startTestApp, type TestApp } from '../support/app';
import { libraryComponent } from '../support/catalog-factories';
import { makeUser, PASSWORD } from '../support/factories';
import { FormClient, newKeyOf } from '../support/forms';

/** The account pages over plain HTTP: the JSON login's rules, CSRF on every form, the key shown once and nowhere
 * else, field errors, the ledger's pages and the catalog's visibility. The browser walk is test/browser/account. */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ loginMaxFailuresPerAddress: 1000 }, { workers: false });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function signedInClient(email: string): Promise<FormClient> {
  const client = new FormClient(app.url);
  await client.get('/account/login/');
  const answer = await client.post('/account/login/', { email, password: PASSWORD, next: '/account/wallet/' });
  expect(answer.status).toBe(303);
  expect(answer.location).toBe('/account/wallet/');
  await client.get('/account/keys/');
  return client;
}

describe('sign in and out', () => {
  it('says wrong password, then locked after the JSON login throttle, and refuses a form without its CSRF cookie', async () => {
    const user = await makeUser(app.services);
    const client = new FormClient(app.url);
    await client.get('/account/login/');
    const wrong = await client.post('/account/login/', { email: user.email, password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Wrong email or password.');
    expect(wrong.text).toContain(`value="${user.email}"`);
    for (let i = 0; i < app.services.settings.loginMaxFailuresPerAccount; i += 1)
      await client.post('/account/login/', { email: user.email, password: 'nope' });
    const locked = await client.post('/account/login/', { email: user.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.text).toMatch(/Sign-in is locked after too many failed attempts.*Try again in \d+ minutes?\./);

    const stranger = new FormClient(app.url);
    const forged = await stranger.send('POST', '/account/login/', { email: user.email, password: PASSWORD, csrfmiddlewaretoken: 'guess' });
    expect(forged.status).toBe(403);
    expect(stranger.cookies.has('sessionid')).toBe(false);
  });

  it('sends an expired session back to sign in with a message, and signs out with a SameSite session cookie', async () => {
    const user = await makeUser(app.services);
    const client = new FormClient(app.url);
    await client.get('/account/login/');
    const signed = await client.post('/account/login/', { email: user.email, password: PASSWORD });
    expect(signed.headers.getSetCookie().find((c) => c.startsWith('sessionid='))).toMatch(/HttpOnly/i);
    expect(signed.headers.getSetCookie().find((c) => c.startsWith('sessionid='))).toMatch(/SameSite=Lax/i);

    app.clock.advance((app.services.settings.sessionTtlHours + 1) * 3600 * 1000);
    try {
      const away = await client.get('/account/wallet/');
      expect(away.status).toBe(303);
      expect(away.location).toBe('/account/login/?next=%2Faccount%2Fwallet%2F&expired=1');
      expect((await client.get(away.location!)).text).toContain('Your session has expired. Sign in again.');
    } finally {
      app.clock.advance(-(app.services.settings.sessionTtlHours + 1) * 3600 * 1000);
    }

    const again = await signedInClient(user.email);
    const out = await again.post('/account/logout/');
    expect(out.status).toBe(303);
    expect(out.location).toBe('/account/login/?signed_out=1');
    expect((await again.get('/account/keys/')).status).toBe(303);
  });
});

describe('forms of a signed-in person', () => {
  it('refuse a post without the session CSRF token, with another token, or marked cross-site, for every action', async () => {
    const user = await makeUser(app.services);
    const client = await signedInClient(user.email);
    const issued = newKeyOf((await client.post('/account/keys/', { name: 'victim' })).text)!;
    const [key] = await app.services.keys.list(user.id);
    const actions: Array<[string, Record<string, string>]> = [
      ['/account/keys/', { name: 'planted', scopes: 'spend' }],
      [`/account/keys/${key.id}/rotate/`, { confirm: 'yes' }],
      [`/account/keys/${key.id}/revoke/`, { confirm: 'yes' }],
      ['/account/keys/legacy/', { confirm: 'yes' }],
      ['/account/wallet/auto-reload/', { enabled: 'true', threshold_credits: '1', amount_credits: '99999' }],
      ['/account/logout/', {}],
    ];
    const other = await signedInClient((await makeUser(app.services)).email);
    for (const [action, fields] of actions) {
      const missing = await client.send('POST', action, fields);
      const foreign = await client.send('POST', action, { ...fields, csrfmiddlewaretoken: other.token! });
      const crossSite = await client.post(action, fields, { 'sec-fetch-site': 'cross-site' });
      expect({ action, statuses: [missing.status, foreign.status, crossSite.status] }).toEqual({ action, statuses: [403, 403, 403] });
    }
    expect((await app.services.keys.list(user.id)).map((k) => [k.id, k.status])).toEqual([[key.id, 'active']]);
    expect((await app.services.ledger.walletView(user.id)).autoReload.enabled).toBe(false);
    expect((await fetch(`${app.url}/api/v1/auth/api-tokens/`, { headers: { authorization: `Token ${issued}` } })).status).toBe(200);
  });

  it('show a new key once, in no redirect and on no other page, behind the pages security headers', async () => {
    const user = await makeUser(app.services, { credits: 1000 });
    const client = await signedInClient(user.email);
    const created = await client.post('/account/keys/', { name: 'once', scopes: ['build'], spend_limit_credits: '5,000', expires_in_days: '30' });
    expect(created.status).toBe(201);
    expect(created.location).toBeNull();
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('x-frame-options')).toBe('DENY');
    expect(created.headers.get('x-content-type-options')).toBe('nosniff');
    expect(created.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(created.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const [asset, type] of [
      ['account.css', 'text/css'],
      ['job.js', 'text/javascript'],
    ]) {
      const served = await fetch(`${app.url}/account/assets/${asset}`);
      expect([served.status, served.headers.get('content-type'), served.headers.get('x-content-type-options')]).toEqual([
        200,
        `${type}; charset=utf-8`,
        'nosniff',
      ]);
    }
    const key = newKeyOf(created.text)!;
    expect(key).toMatch(/^sdc_/);
    expect(created.text).toContain('it will not be shown again');
    const [view] = await app.services.keys.list(user.id);
    expect(view).toMatchObject({ name: 'once', scopes: ['read', 'build'], spendLimitCredits: 5000 });

    const legacy = await client.post('/account/keys/legacy/', { confirm: 'yes' });
    const legacyKey = newKeyOf(legacy.text)!;
    const rotated = await client.post(`/account/keys/${view.id}/rotate/`, { confirm: 'yes' });
    const rotatedKey = newKeyOf(rotated.text)!;
    expect(rotatedKey).not.toBe(key);
    for (const path of [
      '/account/keys/',
      '/account/wallet/',
      '/account/jobs/',
      '/catalog/',
      '/account/logout/',
      `/account/keys/${view.id}/rotate/`,
    ]) {
      const page = path.endsWith('rotate/') ? await client.post(path) : await client.get(path);
      for (const secret of [key, legacyKey, rotatedKey]) expect({ path, shown: page.text.includes(secret) }).toEqual({ path, shown: false });
    }
    for (const answer of client.answers) for (const secret of [key, legacyKey, rotatedKey]) expect(answer.location ?? '').not.toContain(secret);
  });

  it('shows each validation error next to its field, and the 25-active-key limit', async () => {
    const user = await makeUser(app.services);
    const client = await signedInClient(user.email);
    const noName = await client.post('/account/keys/', { name: '  ', spend_limit_credits: '10' });
    expect(noName.status).toBe(400);
    expect(noName.text).toMatch(
      /id="id_name"[^>]*aria-invalid="true"[^>]*aria-describedby="error-name">\s*<span class="field-error" id="error-name">name is required\./,
    );
    expect(noName.text).toContain('value="10"');
    const badLimit = await client.post('/account/keys/', { name: 'x', spend_limit_credits: 'lots' });
    expect(badLimit.text).toContain('id="error-spend_limit_credits">spend_limit_credits must be an integer of at least 0');
    const badDays = await client.post('/account/keys/', { name: 'x', expires_in_days: '0' });
    expect(badDays.text).toContain('id="error-expires_in_days">expires_in_days must be an integer from 1 to 3660.');
    expect(await app.services.keys.list(user.id)).toEqual([]);

    for (let i = 0; i < 25; i += 1)
      await app.services.keys.create(user.id, { name: `k${i}`, scopes: ['read'], spendLimitCredits: null, expiresInDays: null });
    const full = await client.post('/account/keys/', { name: 'one too many' });
    expect(full.status).toBe(400);
    expect(full.text).toContain('id="error-non_field_errors">Limit of 25 active keys reached.');
    expect(full.text).toContain('25 of 25 active keys in use');
  });

  it('asks before rotate and revoke, and answers 404 for a key of someone else', async () => {
    const owner = await makeUser(app.services);
    const { id } = await app.services.keys.create(owner.id, { name: 'theirs', scopes: ['read'], spendLimitCredits: null, expiresInDays: null });
    const client = await signedInClient((await makeUser(app.services)).email);
    expect((await client.post(`/account/keys/${id}/revoke/`)).status).toBe(404);
    expect((await client.post(`/account/keys/${id}/revoke/`, { confirm: 'yes' })).status).toBe(404);
    expect((await app.services.keys.list(owner.id))[0].status).toBe('active');

    const mine = await signedInClient(owner.email);
    const asked = await mine.post(`/account/keys/${id}/revoke/`);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Revoke key &quot;theirs&quot;?');
    expect((await app.services.keys.list(owner.id))[0].status).toBe('active');
  });
});

describe('wallet', () => {
  it('pages the ledger newest first, says what each entry was for, and saves auto-reload', async () => {
    const user = await makeUser(app.services);
    for (let i = 1; i <= 30; i += 1) await app.services.ledger.credit(user.id, i, `top-up ${i}`);
    const client = await signedInClient(user.email);
    const first = await client.get('/account/wallet/');
    expect(first.text).toContain('465 credits');
    const reasons = (html: string) => [...html.matchAll(/data-kind="credit">[\s\S]*?<td>(top-up \d+)/g)].map((m) => m[1]);
    expect(reasons(first.text)).toEqual(Array.from({ length: 25 }, (_, i) => `top-up ${30 - i}`));
    const next = /href="(\/account\/wallet\/\?before=\d+)" rel="next"/.exec(first.text)![1];
    const second = await client.get(next);
    expect(reasons(second.text)).toEqual(['top-up 5', 'top-up 4', 'top-up 3', 'top-up 2', 'top-up 1']);
    expect(second.text).not.toContain('rel="next"');
    expect((await client.get('/account/wallet/?before=abc')).status).toBe(400);

    const refused = await client.post('/account/wallet/auto-reload/', { enabled: 'true', threshold_credits: '10', amount_credits: '0' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="error-amount_credits">Must be positive.');
    const saved = await client.post('/account/wallet/auto-reload/', { enabled: 'true', threshold_credits: '10', amount_credits: '500' });
    expect(saved.text).toContain('Auto-reload saved.');
    expect((await app.services.ledger.walletView(user.id)).autoReload).toEqual({ enabled: true, thresholdCredits: 10, amountCredits: 500 });
  });
});

describe('catalog', () => {
  it('shows a draft to its owner only, with the REST catalog visibility', async () => {
    const owner = await makeUser(app.services);
    const label = `Draftlabel${Date.now()}`;
    await libraryComponent(app.services, { label, status: 'draft', ownerId: owner.id });
    const published = `Publishedlabel${Date.now()}`;
    await libraryComponent(app.services, { label: published });

    const anonymous = new FormClient(app.url);
    const seen = await anonymous.get(`/catalog/?search=${label}`);
    expect(seen.status).toBe(200);
    const listed = (name: string) => `<td>${name}</td>`;
    expect(seen.text).not.toContain(listed(label));
    expect((await anonymous.get(`/catalog/?search=${published}`)).text).toContain(listed(published));
    const mine = await signedInClient(owner.email);
    const own = (await mine.get(`/catalog/?search=${label}`)).text;
    expect(own).toContain(listed(label));
    expect(own).toContain('draft (yours)');
    expect((await anonymous.get('/catalog/nosuchmodel000000000000/')).status).toBe(404);
  });

  it('pages the components of a search, keeping the search in each link', async () => {
    const prefix = `Paged${Date.now()}`;
    for (let i = 0; i < 53; i += 1) await libraryComponent(app.services, { label: `${prefix} ${String(i).padStart(2, '0')}` });
    const client = new FormClient(app.url);
    const rows = (html: string) => [...html.matchAll(/data-component="[^"]+"><td>([^<]+)</g)].length;
    const first = await client.get(`/catalog/?search=${prefix}`);
    expect(rows(first.text)).toBe(50);
    expect(first.text).toContain('53 components, page 1 of 2');
    const next = /href="([^"]+)" rel="next"/.exec(first.text)![1].replaceAll('&amp;', '&');
    expect(next).toBe(`/catalog/?search=${prefix}&page=2`);
    const second = await client.get(next);
    expect(rows(second.text)).toBe(3);
    expect(second.text).toContain('rel="prev"');
    expect(second.text).not.toContain('rel="next"');
    expect((await client.get(`/catalog/?search=${prefix}&page=abc`)).status).toBe(400);
  });
});
