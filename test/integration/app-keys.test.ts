import { createHash } from 'node:crypto';
import { issueKey, signedIn } from '../support/factories';
import { runCli } from '../support/process';
import { waitFor } from '../support/wait';
import { startAppUnderTest, type AppUnderTest } from './app-helpers';

const WHOAMI = '/api/v1/whoami/';
const AUTH_ERROR = {
  success: false,
  error: expect.stringContaining('X-API-Key'),
  errors: { 'X-API-Key': [expect.any(String)] },
  error_code: 'AUTHENTICATION_ERROR',
};

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(() => app?.close());

describe('X-API-Key', () => {
  it('authenticates every endpoint; missing, unknown and deactivated keys get the same 401', async () => {
    const { key } = await app.services.app.keys.create({ organization: 'Acme', contactEmail: 'a@acme.test' });
    expect((await app.call('GET', WHOAMI, { headers: { 'x-api-key': key.prefix } })).status).toBe(401);
    const ok = await app.call('GET', WHOAMI, {
      headers: { 'x-api-key': (await app.services.app.keys.create({ organization: 'Beta', contactEmail: 'b@beta.test' })).plaintext },
    });
    expect(ok.body).toEqual({ success: true, data: { organization: 'Beta' } });

    const issued = await app.services.app.keys.create({ organization: 'Gamma', contactEmail: 'g@gamma.test' });
    await app.services.app.keys.deactivate(issued.key.id);
    const routes: Array<[string, string]> = [
      ['POST', '/api/v1/upload/zip/'],
      ['POST', '/api/v1/upload/schema/'],
      ['POST', '/api/v1/upload/rdf/'],
      ['POST', '/api/v1/validate/xml/'],
      ['GET', '/api/v1/instances/i-x/'],
      ['GET', '/api/v1/sparql?query=ASK%7B%7D'],
      ['GET', WHOAMI],
    ];
    for (const [method, route] of routes) {
      for (const headers of [{ 'x-api-key': '' }, { 'x-api-key': 'sdcapp_unknown' }, { 'x-api-key': issued.plaintext }]) {
        const res = await fetch(app.url + route, { method, headers });
        expect({ route, status: res.status }).toEqual({ route, status: 401 });
        expect(await res.json()).toEqual(AUTH_ERROR);
      }
    }
  });

  it('a studio key (Authorization: Token) is refused on the app API, and an app key on the studio API', async () => {
    const { client } = await signedIn(app.url, app.services);
    const studioKey = await issueKey(client);
    const onApp = await fetch(`${app.url}${WHOAMI}`, { headers: { authorization: `Token ${studioKey.key}` } });
    expect(onApp.status).toBe(401);
    expect((await onApp.json()).error_code).toBe('AUTHENTICATION_ERROR');
    const onStudio = await fetch(`${app.url}/api/v1/auth/me/`, { headers: { 'x-api-key': app.key } });
    expect(onStudio.status).toBe(401);
  });

  it('stores only the SHA-256 of a key and counts request_count and last_used exactly under concurrency, within a second', async () => {
    const { key, plaintext } = await app.services.app.keys.create({ organization: 'Delta', contactEmail: 'd@delta.test' });
    expect(plaintext).toMatch(/^sdcapp_[A-Za-z0-9]{40}$/);
    const dump = JSON.stringify(await app.services.db.query('SELECT * FROM app_api_keys'));
    expect(dump).not.toContain(plaintext);
    expect(dump).toContain(createHash('sha256').update(plaintext).digest('hex'));

    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${app.url}${WHOAMI}`, { headers: { 'x-api-key': plaintext } }).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Counted in memory, written in one batch at least every second (README: Key cache and usage counters).
    const row = await waitFor(
      async () => (await app.services.db.query('SELECT request_count, last_used FROM app_api_keys WHERE id = $1', [key.id]))[0],
      (r: { request_count: string; last_used: Date | null }) => Number(r.request_count) === 40,
      1500,
      'request_count 40',
    );
    expect(row.last_used).not.toBeNull();
  });

  it('rotation disables the old key and issues a new one for the same organisation', async () => {
    const first = await app.services.app.keys.create({ organization: 'Epsilon', contactEmail: 'e@eps.test' });
    const second = await app.services.app.keys.rotate(first.key.id);
    expect(second.key).toMatchObject({ organization: 'Epsilon', contactEmail: 'e@eps.test', replacesId: first.key.id, isActive: true });
    expect((await app.call('GET', WHOAMI, { headers: { 'x-api-key': first.plaintext } })).status).toBe(401);
    expect((await app.call('GET', WHOAMI, { headers: { 'x-api-key': second.plaintext } })).status).toBe(200);
  });
});

describe('CLI', () => {
  it('app-key create prints the key once, list shows prefixes, deactivate stops it', async () => {
    const env = { DATABASE_URL: app.databaseUrl };
    const created = await runCli(['app-key', 'create', '--org', 'Cli Org', '--email', 'cli@org.test'], env);
    expect(created.code).toBe(0);
    const plaintext = created.json.key.key as string;
    expect(created.json.key).toMatchObject({
      organization: 'Cli Org',
      contact_email: 'cli@org.test',
      is_active: true,
      prefix: plaintext.slice(0, 12),
    });
    expect((await app.call('GET', WHOAMI, { headers: { 'x-api-key': plaintext } })).status).toBe(200);

    const listed = await waitFor(
      () => runCli(['app-key', 'list'], env),
      (r) => r.json.keys.find((k: { id: number }) => k.id === created.json.key.id)?.request_count === 1,
      5000,
      'request_count 1 in the list',
    );
    const entry = listed.json.keys.find((k: { id: number }) => k.id === created.json.key.id);
    expect(entry).toMatchObject({ prefix: plaintext.slice(0, 12), request_count: 1 });
    expect(JSON.stringify(listed.json)).not.toContain(plaintext);

    const deactivated = await runCli(['app-key', 'deactivate', String(created.json.key.id)], env);
    expect(deactivated.json.key.is_active).toBe(false);
    expect((await app.call('GET', WHOAMI, { headers: { 'x-api-key': plaintext } })).status).toBe(401);

    const refused = await runCli(['app-key', 'create', '--org', 'X', '--email', 'not-an-email'], env);
    expect(refused.code).toBe(1);
    expect(refused.json.error_type).toBe('VALIDATION_ERROR');
  });
});
