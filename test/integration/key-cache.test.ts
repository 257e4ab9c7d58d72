import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/db/embedded-postgres';
import { startTestApp, type TestApp } from '../support/app';
import { expectWithinBaseline, msOf } from '../support/baseline';
import { issueKey, signedIn } from '../support/factories';
import { exitOf, startService } from '../support/process';
import { waitFor } from '../support/wait';

/** Keys are resolved from an in-process cache (src/services/key-cache.ts): two processes on one database (this
 * test's in-process app and a spawned `dist/src/main.js`; `npm run build` first) both hold a key, and a change
 * made through either reaches the other within a second. Usage counted in memory is all written by a clean stop.
 * Key lists are cached too, and any change of what they show, by any writer, reaches both within a second. */
let app: TestApp;
let storageDir: string;
let other: (ChildProcess & { output: () => string }) | null = null;
let otherUrl: string;

const WHOAMI = '/api/v1/whoami/';
const KEYS = '/api/v1/auth/api-tokens/';

const startOther = async () => {
  const port = await freePort();
  otherUrl = `http://127.0.0.1:${port}`;
  other = await startService(
    { DATABASE_URL: app.databaseUrl, STORAGE_DIR: storageDir, PUBLIC_BASE_URL: otherUrl, LOG_LEVEL: 'warn', ROLE: 'all' },
    port,
  );
};

const stopOther = async () => {
  if (!other) return { code: null, signal: null };
  const exited = exitOf(other);
  other.kill('SIGTERM');
  other = null;
  return exited;
};

const status = (url: string, headers: Record<string, string>) => fetch(url, { headers }).then((res) => res.status);

/** The baseline for a refusal: the slowest of three requests `url` answers now. A refusal is a NOTIFY away (a few
 * such round trips), where the cache's own expiry is a minute. */
async function slowestAnswer(url: string, headers: Record<string, string>): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < 3; i++) slowest = Math.max(slowest, await msOf(() => status(url, headers)));
  return slowest;
}

/** Milliseconds from now until `url` answers 401 with `headers` (polled every 20 ms, at most 5 s). */
async function msUntilRefused(url: string, headers: Record<string, string>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 5000) {
    if ((await status(url, headers)) === 401) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Infinity;
}

beforeAll(async () => {
  app = await startTestApp();
  storageDir = await mkdtemp(path.join(tmpdir(), 'key-cache-storage-'));
  await startOther();
}, 120000);

afterAll(async () => {
  if (other) await stopOther();
  await app?.close();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe('key cache across processes', () => {
  it('a studio key revoked in one process fails in the other within a second, while it was cached there', async () => {
    const { user, client } = await signedIn(app.url, app.services);
    const issued = await issueKey(client, { scopes: ['read'] });
    const headers = { authorization: `Token ${issued.key}` };
    for (const base of [app.url, otherUrl]) expect(await status(base + KEYS, headers)).toBe(200);

    // Cached, not read per request: a change made behind the service's back (no NOTIFY) is not seen yet.
    await app.services.db.query(`UPDATE users SET name = 'Renamed behind its back' WHERE id = $1`, [user.id]);
    for (const base of [app.url, otherUrl]) {
      const me = await fetch(`${base}/api/v1/auth/me/`, { headers }).then((res) => res.json());
      expect(me.user.name).not.toBe('Renamed behind its back');
    }

    // Revoked through the other process (a key may revoke itself): this process refuses it within a second.
    const baseline = await slowestAnswer(app.url + KEYS, headers);
    const revoked = await fetch(`${otherUrl}${KEYS}${issued.id}/revoke/`, { method: 'POST', headers });
    expect(revoked.status).toBe(200);
    expect(await status(otherUrl + KEYS, headers)).toBe(401);
    expectWithinBaseline(await msUntilRefused(app.url + KEYS, headers), baseline, 100);

    // And the other way round: rotated here, refused there within a second.
    const second = await issueKey(client, { scopes: ['read'] });
    const secondHeaders = { authorization: `Token ${second.key}` };
    for (const base of [app.url, otherUrl]) expect(await status(base + KEYS, secondHeaders)).toBe(200);
    const secondBaseline = await slowestAnswer(otherUrl + KEYS, secondHeaders);
    expect((await client.post(`${KEYS}${second.id}/rotate/`, {})).status).toBe(201);
    expect(await status(app.url + KEYS, secondHeaders)).toBe(401);
    expectWithinBaseline(await msUntilRefused(otherUrl + KEYS, secondHeaders), secondBaseline, 100);
  });

  it('an expired studio key is refused at once though cached', async () => {
    const { client } = await signedIn(app.url, app.services);
    const issued = await issueKey(client, { scopes: ['read'], expires_in_days: 1 });
    const headers = { authorization: `Token ${issued.key}` };
    expect(await status(app.url + KEYS, headers)).toBe(200);
    app.clock.advance(24 * 3600 * 1000 + 1000);
    expect(await status(app.url + KEYS, headers)).toBe(401);
  });

  it('an Interface B key deactivated or rotated in one process fails in the other within a second', async () => {
    const first = await app.services.app.keys.create({ organization: 'Cached Org', contactEmail: 'c@org.test' });
    const headers = { 'x-api-key': first.plaintext };
    for (const base of [app.url, otherUrl]) expect(await status(base + WHOAMI, headers)).toBe(200);
    await app.services.db.query(`UPDATE app_api_keys SET organization = 'Renamed' WHERE id = $1`, [first.key.id]);
    const cached = await fetch(otherUrl + WHOAMI, { headers }).then((res) => res.json());
    expect(cached.data.organization).toBe('Cached Org');

    const baseline = await slowestAnswer(otherUrl + WHOAMI, headers);
    await app.services.app.keys.deactivate(first.key.id);
    expect(await status(app.url + WHOAMI, headers)).toBe(401);
    expectWithinBaseline(await msUntilRefused(otherUrl + WHOAMI, headers), baseline, 100);

    const second = await app.services.app.keys.create({ organization: 'Rotating Org', contactEmail: 'r@org.test' });
    const secondHeaders = { 'x-api-key': second.plaintext };
    for (const base of [app.url, otherUrl]) expect(await status(base + WHOAMI, secondHeaders)).toBe(200);
    const secondBaseline = await slowestAnswer(otherUrl + WHOAMI, secondHeaders);
    const third = await app.services.app.keys.rotate(second.key.id);
    expect(await status(app.url + WHOAMI, secondHeaders)).toBe(401);
    expectWithinBaseline(await msUntilRefused(otherUrl + WHOAMI, secondHeaders), secondBaseline, 100);
    expect(await status(otherUrl + WHOAMI, { 'x-api-key': third.plaintext })).toBe(200);
  });
});

interface ListedKey {
  id: number;
  status: string;
  spent_credits: number;
}

const listed = (base: string, headers: Record<string, string>): Promise<ListedKey[]> =>
  fetch(base + KEYS, { headers }).then((res) => res.json() as Promise<ListedKey[]>);

/** Polls both processes' lists until `done` holds for each; the deadline is the second the README promises. */
const bothListsWithinASecond = (headers: Record<string, string>, done: (keys: ListedKey[]) => boolean, what: string) =>
  Promise.all([app.url, otherUrl].map((base) => waitFor(() => listed(base, headers), done, 1000, `${what} at ${base}`)));

describe('key lists', () => {
  it('a key created, revoked or rotated shows at once in the list of the process that changed it', async () => {
    const { client } = await signedIn(app.url, app.services);
    const first = await issueKey(client);
    const key = client.withToken(first.key);
    expect((await key.get(KEYS)).body.map((k: ListedKey) => k.id)).toEqual([first.id]);

    const second = await issueKey(client);
    expect((await key.get(KEYS)).body.map((k: ListedKey) => k.id)).toEqual([second.id, first.id]);

    expect((await client.post(`${KEYS}${second.id}/revoke/`)).status).toBe(200);
    expect((await key.get(KEYS)).body.map((k: ListedKey) => [k.id, k.status])).toEqual([
      [second.id, 'revoked'],
      [first.id, 'active'],
    ]);

    const rotated = await client.post(`${KEYS}${first.id}/rotate/`);
    expect(rotated.status).toBe(201);
    const after = await client.withToken(rotated.body.key).get(KEYS);
    expect(after.body.map((k: ListedKey) => [k.id, k.status])).toEqual([
      [rotated.body.id, 'active'],
      [second.id, 'revoked'],
      [first.id, 'revoked'],
    ]);
  });

  it('a revocation in the other process, a direct UPDATE of spent_credits and a charge show in both lists within a second', async () => {
    const { user, client } = await signedIn(app.url, app.services, { credits: 1000 });
    const spender = await issueKey(client, { scopes: ['spend'] });
    const doomed = await issueKey(client);
    const headers = { authorization: `Token ${spender.key}` };
    for (const base of [app.url, otherUrl]) expect((await listed(base, headers)).map((k) => k.status)).toEqual(['active', 'active']);

    expect((await fetch(`${otherUrl}${KEYS}${doomed.id}/revoke/`, { method: 'POST', headers })).status).toBe(200);
    await bothListsWithinASecond(headers, (keys) => keys[0]?.status === 'revoked', 'the revocation');

    await app.services.db.query('UPDATE api_keys SET spent_credits = 7 WHERE id = $1', [spender.id]);
    await bothListsWithinASecond(headers, (keys) => keys[1]?.spent_credits === 7, 'the UPDATE');

    await app.services.db.transaction((m) =>
      app.services.ledger.charge({ userId: user.id, amount: 5, reason: 'key list test', apiKeyId: spender.id }, m),
    );
    await bothListsWithinASecond(headers, (keys) => keys[1]?.spent_credits === 12, 'the charge');
  });

  it('a charge shows in the list of the process that charged as soon as the charge returns, NOTIFY or not', async () => {
    const { user, client } = await signedIn(app.url, app.services, { credits: 1000 });
    const spender = await issueKey(client, { scopes: ['spend'] });
    const headers = { authorization: `Token ${spender.key}` };
    // Without the trigger's NOTIFY, only the charging process's own bookkeeping can keep its list true.
    await app.services.db.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_listed_columns_updated');
    try {
      for (let round = 1; round <= 3; round++) {
        expect((await listed(app.url, headers))[0].spent_credits).toBe((round - 1) * 3);
        await app.services.db.transaction((m) =>
          app.services.ledger.charge({ userId: user.id, amount: 3, reason: 'read your writes', apiKeyId: spender.id }, m),
        );
        expect((await listed(app.url, headers))[0].spent_credits).toBe(round * 3);
      }
    } finally {
      await app.services.db.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_listed_columns_updated');
    }
  });

  it('the trigger announces each change of a listed column, and not the usage flush or a hold', async () => {
    const { user, client } = await signedIn(app.url, app.services);
    const key = await issueKey(client);
    const listener = new Client({ connectionString: app.databaseUrl });
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.connect();
    try {
      await listener.query('LISTEN api_keys_changed');
      const next = async (change: () => Promise<unknown>) => {
        heard.length = 0;
        await change();
        return waitFor(
          async () => [...heard],
          (payloads) => payloads.length > 0,
          5000,
          'a notification',
        );
      };
      const sql = (text: string) => () => app.services.db.query(text, [key.id]);
      // Unannounced updates commit first: had they notified, theirs would arrive before the announced one's.
      const silentThenSpent = async () => {
        await sql('UPDATE api_keys SET last_used_at = now() WHERE id = $1')();
        await sql('UPDATE api_keys SET held_credits = held_credits + 3 WHERE id = $1')();
        await sql('UPDATE api_keys SET spent_credits = spent_credits WHERE id = $1')();
        await sql('UPDATE api_keys SET spent_credits = spent_credits + 1, held_credits = held_credits - 1 WHERE id = $1')();
      };
      expect(await next(silentThenSpent)).toEqual([String(user.id)]);
      expect(await next(sql(`UPDATE api_keys SET expires_at = now() + interval '1 day' WHERE id = $1`))).toEqual([String(user.id)]);
      expect(await next(() => issueKey(client))).toEqual([String(user.id)]);
      expect(await next(sql('DELETE FROM api_keys WHERE id = $1'))).toEqual([String(user.id)]);
    } finally {
      await listener.end();
    }
  });
});

describe('usage counters', () => {
  it('request counts are exact after a clean stop under load', async () => {
    const issued = await app.services.app.keys.create({ organization: 'Counted Org', contactEmail: 'n@org.test' });
    const { client } = await signedIn(app.url, app.services);
    const studio = await issueKey(client, { scopes: ['read'] });
    const headers = { 'x-api-key': issued.plaintext };
    let answered = 0;
    // 16 clients call whoami back to back until the process stops under them (SIGTERM mid-load).
    const lane = async () => {
      for (;;) {
        const res = await fetch(otherUrl + WHOAMI, { headers }).catch(() => null);
        if (!res) return;
        if (res.status === 200) answered++;
        else if (res.status !== 503) throw new Error(`unexpected ${res.status}`);
        await res.arrayBuffer().catch(() => undefined);
      }
    };
    const lanes = Array.from({ length: 16 }, lane);
    expect(await status(otherUrl + KEYS, { authorization: `Token ${studio.key}` })).toBe(200);
    await waitFor(
      async () => answered,
      (n) => n >= 300,
      20000,
      '300 answered requests',
    );
    const exit = stopOther();
    await Promise.all(lanes);
    expect(await exit).toEqual({ code: 0, signal: null });
    const [row] = await app.services.db.query('SELECT request_count FROM app_api_keys WHERE id = $1', [issued.key.id]);
    expect(Number(row.request_count)).toBe(answered);
    const [key] = await app.services.db.query('SELECT last_used_at FROM api_keys WHERE id = $1', [studio.id]);
    expect(key.last_used_at).not.toBeNull();
    await startOther();
  }, 60000);
});
