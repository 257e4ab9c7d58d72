import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../src/db/embedded-postgres';
import { ApiKey } from '../../src/entities/api-key.entity';
import { startTestApp, type TestApp } from '../support/app';
import { expectWithinBaseline, msOf } from '../support/baseline';
import { issueKey, PASSWORD, signedIn } from '../support/factories';
import { exitOf, startService } from '../support/process';
import { openSocket, type RawSocket } from '../support/raw-socket';
import { within } from '../support/wait';

/** graphql-ws edges: cross-site use of the session cookie, credentials that stop working while a socket is open
 * (here and in a second gateway process), and the per-socket, per-credential and per-address limits. */
const MY_JOBS = 'subscription { myJobs { ctId status } }';
const ATTACKER = 'https://attacker.example';

let app: TestApp;
/** Milliseconds from each credential change's return (or expiry) to its socket's close, reported after the run. */
const latencies: number[] = [];

beforeAll(async () => {
  app = await startTestApp({
    websocket: {
      allowedOrigins: ['https://studio.example'],
      maxSubscriptionsPerSocket: 5,
      maxSubscriptionsPerUser: 200,
      maxSocketsPerCredential: 4,
      maxSocketsPerAddress: 30,
      maxMessageBytes: 64 * 1024,
      maxMessagesPerSecond: 50,
      maxMessagesPerSecondPerCaller: 1000,
    },
  });
}, 120_000);

afterAll(async () => {
  if (latencies.length)
    console.log(
      `credential end to socket close, ${latencies.length} sockets: max ${Math.max(...latencies)} ms, median ${[...latencies].sort((a, b) => a - b)[latencies.length >> 1]} ms`,
    );
  await app?.close();
});

const cookieOf = (client: { cookie(name: string): string | undefined }) => `sessionid=${client.cookie('sessionid')}`;

/** Opens `count` sockets with `options`, each with a live myJobs subscription. */
async function listening(count: number, options: Parameters<typeof openSocket>[1], baseUrl = app.url): Promise<RawSocket[]> {
  const sockets = Array.from({ length: count }, () => openSocket(baseUrl, options));
  for (const socket of sockets) {
    expect(await socket.acked).toBe(true);
    socket.subscribe('jobs', MY_JOBS);
  }
  // A ping answered after the subscribe proves the server processed it without an error.
  for (const socket of sockets) {
    socket.send({ type: 'ping' });
    await socket.next((m) => m.type === 'pong');
    expect(socket.messages.filter((m) => m.type === 'error' || m.type === 'complete')).toEqual([]);
  }
  return sockets;
}

/** Whether the socket still answers a ping 1.5 s after its neighbours were closed. */
async function stillOpen(socket: RawSocket): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const pongs = socket.messages.filter((m) => m.type === 'pong').length;
  socket.send({ type: 'ping' });
  const answered = socket.next((m) => m.type === 'pong' && socket.messages.filter((n) => n.type === 'pong').length > pongs, 3000);
  return answered.then(
    () => true,
    () => false,
  );
}

/** The baseline for a close: the slowest of three pings answered on `socket` now. A close is a NOTIFY (or a timer)
 * away, a few such round trips. */
async function slowestPong(socket: RawSocket): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < 3; i++) {
    const pongs = socket.messages.filter((m) => m.type === 'pong').length;
    slowest = Math.max(
      slowest,
      await msOf(async () => {
        socket.send({ type: 'ping' });
        await socket.next((m) => m.type === 'pong' && socket.messages.filter((n) => n.type === 'pong').length > pongs, 3000);
      }),
    );
  }
  return slowest;
}

/** Each socket closed with 4401 within ten baselines (each counted as at least 100 ms) of `since`: when the call that
 * ended the credential returned (its commit; a password hash is not the close's latency), or the expiry. */
async function expectEndedWithin(sockets: RawSocket[], since: number, baselineMs: number): Promise<void> {
  for (const socket of sockets) {
    const closed = await socket.closed;
    expect({ code: closed.code, reason: closed.reason }).toEqual({ code: 4401, reason: 'Credentials revoked or expired' });
    latencies.push(closed.at - since);
    expectWithinBaseline(closed.at - since, baselineMs, 100);
  }
}

describe('a socket carrying the session cookie from another origin', () => {
  jest.setTimeout(60_000);

  it('is refused with 4403 and runs nothing: no key created, no profile changed', async () => {
    const { user, client } = await signedIn(app.url, app.services);
    const socket = openSocket(app.url, { cookie: cookieOf(client), origin: ATTACKER });
    socket.subscribe('k', 'mutation { createApiKey(input: { name: "stolen" }) { key } }');
    socket.subscribe('p', 'mutation { updateProfile(input: { email: "evil@attacker.example" }) { email } }');
    expect(await socket.acked).toBe(false);
    expect(await socket.closed).toMatchObject({ code: 4403 });
    expect(socket.messages).toEqual([]);
    expect(await app.services.db.manager.countBy(ApiKey, { userId: user.id })).toBe(0);
    expect((await app.services.users.get(user.id)).email).toBe(user.email);
  });

  it('is accepted from its own origin, from an allow-listed origin, without an Origin (no browser), or with the CSRF token', async () => {
    const { client } = await signedIn(app.url, app.services);
    const cookie = cookieOf(client);
    const csrf = client.cookie('csrftoken')!;
    const accepted = [
      openSocket(app.url, { cookie, origin: app.url }),
      openSocket(app.url, { cookie, origin: 'https://studio.example' }),
      openSocket(app.url, { cookie }),
      openSocket(app.url, { cookie, origin: ATTACKER, params: { csrfToken: csrf } }),
    ];
    for (const socket of accepted) expect(await socket.acked).toBe(true);
    accepted[3].subscribe('k', 'mutation { createApiKey(input: { name: "with-csrf" }) { name } }');
    const created = await accepted[3].next((m) => m.id === 'k' && m.type === 'next');
    expect(created.payload).toMatchObject({ data: { createApiKey: { name: 'with-csrf' } } });
    const wrongToken = openSocket(app.url, { cookie, origin: ATTACKER, params: { csrfToken: 'x'.repeat(csrf.length) } });
    expect(await wrongToken.closed).toMatchObject({ code: 4403 });
    for (const socket of accepted) socket.close();
  });

  it('a key in connection_init is accepted from any origin, under any capitalisation of Authorization', async () => {
    const { client } = await signedIn(app.url, app.services);
    const { key } = await issueKey(client);
    for (const name of ['authorization', 'Authorization', 'AUTHORIZATION']) {
      const socket = openSocket(app.url, { origin: ATTACKER, params: { [name]: `Token ${key}` } });
      expect(await socket.acked).toBe(true);
      socket.close();
    }
  });
});

describe('credentials that stop working end their open subscriptions within 1 s (close 4401)', () => {
  jest.setTimeout(60_000);

  it('revoking a key ends its three sockets and their job listeners; the owner session socket stays', async () => {
    const { client } = await signedIn(app.url, app.services);
    const { id, key } = await issueKey(client);
    const jobListeners = () => app.services.events!['emitter'].listenerCount('job');
    // A subscription starts listening once its stream is first read, a moment after the server acknowledged it.
    const listenersReach = async (count: number) => {
      for (let i = 0; i < 40 && jobListeners() !== count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return jobListeners();
    };
    const before = jobListeners();
    const keySockets = await listening(3, { params: { authorization: `Token ${key}` } });
    const [sessionSocket] = await listening(1, { cookie: cookieOf(client) });
    expect(await listenersReach(before + 4)).toBe(before + 4);
    const baseline = await slowestPong(keySockets[0]);
    expect((await client.post(`/api/v1/auth/api-tokens/${id}/revoke/`)).status).toBe(200);
    const since = Date.now();
    await expectEndedWithin(keySockets, since, baseline);
    // The subscriptions stop listening when their socket closes, not at the next job event.
    expect(await listenersReach(before + 1)).toBe(before + 1);
    expect(await stillOpen(sessionSocket)).toBe(true);
    sessionSocket.close();
  });

  it('rotating a key ends the old key sockets', async () => {
    const { client } = await signedIn(app.url, app.services);
    const { id, key } = await issueKey(client);
    const sockets = await listening(2, { params: { authorization: `Token ${key}` } });
    const baseline = await slowestPong(sockets[0]);
    expect((await client.post(`/api/v1/auth/api-tokens/${id}/rotate/`)).status).toBe(201);
    const since = Date.now();
    await expectEndedWithin(sockets, since, baseline);
  });

  it('a key reaching its expiry ends its sockets at that instant', async () => {
    const { client } = await signedIn(app.url, app.services);
    const { id, key } = await issueKey(client, { expires_in_days: 1 });
    const expiresAt = new Date(Date.now() + 2500);
    await app.services.db.manager.update(ApiKey, { id }, { expiresAt });
    const sockets = await listening(2, { params: { authorization: `Token ${key}` } });
    const baseline = await slowestPong(sockets[0]);
    await expectEndedWithin(sockets, expiresAt.getTime(), baseline);
    for (const socket of sockets) expect((await socket.closed).at).toBeGreaterThanOrEqual(expiresAt.getTime() - 50);
  });

  it('signing out ends that session sockets, not those of another session of the same user', async () => {
    const { user, client } = await signedIn(app.url, app.services);
    const sockets = await listening(3, { cookie: cookieOf(client) });
    const second = await loginAgain(user.email);
    const [kept] = await listening(1, { cookie: `sessionid=${second}` });
    const baseline = await slowestPong(sockets[0]);
    expect((await client.post('/api/v1/auth/logout/')).status).toBeLessThan(300);
    const since = Date.now();
    await expectEndedWithin(sockets, since, baseline);
    expect(await stillOpen(kept)).toBe(true);
    kept.close();
  });

  it('changing the password ends every session socket of the account', async () => {
    const { user, client } = await signedIn(app.url, app.services);
    const sockets = await listening(2, { cookie: cookieOf(client) });
    const baseline = await slowestPong(sockets[0]);
    await app.services.users.resetPassword(user.email, 'a brand new password');
    const since = Date.now();
    await expectEndedWithin(sockets, since, baseline);
  });
});

async function loginAgain(email: string): Promise<string> {
  const res = await fetch(`${app.url}/api/v1/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return /sessionid=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))![1];
}

describe('a second gateway process on the same database', () => {
  jest.setTimeout(120_000);
  let gateway: ChildProcess | null = null;
  let storageDir = '';

  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      gateway.kill('SIGTERM');
      await exitOf(gateway);
    }
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  it('closes its sockets of a key revoked, and of a session ended, in this process within 1 s', async () => {
    storageDir = await mkdtemp(path.join(tmpdir(), 'security-sockets-'));
    const port = await freePort();
    const otherUrl = `http://127.0.0.1:${port}`;
    gateway = await startService(
      { ROLE: 'gateway', DATABASE_URL: app.databaseUrl, STORAGE_DIR: storageDir, PUBLIC_BASE_URL: otherUrl, LOG_LEVEL: 'warn' },
      port,
    );
    const { client } = await signedIn(app.url, app.services);
    const { id, key } = await issueKey(client);
    const keySockets = await listening(3, { params: { authorization: `Token ${key}` } }, otherUrl);
    const sessionSockets = await listening(2, { cookie: cookieOf(client) }, otherUrl);
    let baseline = await slowestPong(keySockets[0]);
    expect((await client.post(`/api/v1/auth/api-tokens/${id}/revoke/`)).status).toBe(200);
    let since = Date.now();
    await expectEndedWithin(keySockets, since, baseline);
    baseline = await slowestPong(sessionSockets[0]);
    expect((await client.post('/api/v1/auth/logout/')).status).toBeLessThan(300);
    since = Date.now();
    await expectEndedWithin(sessionSockets, since, baseline);
  });
});

describe('WebSocket limits close with a graphql-ws code, never silently', () => {
  jest.setTimeout(60_000);

  it('more operations on one socket than allowed: 4429, and the service keeps answering', async () => {
    const { client } = await signedIn(app.url, app.services);
    const { key } = await issueKey(client);
    const socket = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await socket.acked).toBe(true);
    // A refusal is the client's error: not logged as the service's own (a flood of them wrote a stack trace each).
    const logged = jest.spyOn(app.services.logger, 'error');
    try {
      for (let i = 0; i < 40; i++) socket.subscribe(`s${i}`, MY_JOBS);
      expect(await socket.closed).toMatchObject({ code: 4429, reason: 'Too many operations on one socket: at most 5' });
      expect((await client.graphql('{ me { email } }')).status).toBe(200);
      expect(logged.mock.calls.map((call) => call[1])).not.toContain('unhandled GraphQL error');
    } finally {
      logged.mockRestore();
    }
  });

  it('more sockets for one credential than allowed: the extra one closes with 4429', async () => {
    const { client } = await signedIn(app.url, app.services);
    const { key } = await issueKey(client);
    const params = { authorization: `Token ${key}` };
    const allowed = Array.from({ length: 4 }, () => openSocket(app.url, { params }));
    for (const socket of allowed) expect(await socket.acked).toBe(true);
    const extra = openSocket(app.url, { params });
    expect(await extra.closed).toMatchObject({ code: 4429, reason: 'Too many sockets for one credential: at most 4' });
    allowed[0].close();
    await allowed[0].closed;
    const again = openSocket(app.url, { params });
    expect(await again.acked).toBe(true);
    for (const socket of [...allowed, again]) socket.close();
  });

  it('more sockets from one address than allowed: 4429', async () => {
    // Sockets of earlier tests may still be closing on the server, so at least one of 31 is over the limit of 30.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sockets = Array.from({ length: 31 }, () => openSocket(app.url, { init: false }));
    const codes = await Promise.all(
      sockets.map((s) =>
        within(
          s.closed.then((c) => c.code),
          2000,
          'open',
        ),
      ),
    );
    expect(codes.filter((c) => c === 4429).length).toBeGreaterThanOrEqual(1);
    expect(codes.filter((c) => c !== 4429)).toEqual(codes.filter((c) => c === 'open'));
    expect(codes.filter((c) => c === 'open').length).toBeLessThanOrEqual(30);
    for (const socket of sockets) socket.close();
  });

  it('too many messages a second: 4429; a message over the size limit: 1009', async () => {
    const { client } = await signedIn(app.url, app.services);
    const { key } = await issueKey(client);
    const chatty = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await chatty.acked).toBe(true);
    for (let i = 0; i < 60; i++) chatty.send({ type: 'ping' });
    expect(await chatty.closed).toMatchObject({ code: 4429, reason: 'Too many messages: at most 50 a second' });
    const big = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await big.acked).toBe(true);
    big.subscribe('big', `{ me { email } } # ${'x'.repeat(70 * 1024)}`);
    expect(await big.closed).toMatchObject({ code: 1009 });
  });
});
