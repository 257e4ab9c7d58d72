import net from 'node:net';
import { startTestApp, type TestApp } from '../support/app';
import { issueKey, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { openSocket, type RawSocket } from '../support/raw-socket';

/** Caller budgets (issue 30, point 2): one in-flight budget per caller shared by REST, GraphQL over HTTP and
 * GraphQL over WebSocket; a caller is a verified credential, and a made-up Authorization is the address it
 * comes from; subscriptions have a cap per user across every socket and key. A request is held in progress by
 * sending its headers and only part of its body, so the budget is observed exactly, with no timing. */

const MAX_IN_FLIGHT = 4;
const MAX_SUBSCRIPTIONS_PER_USER = 3;
const MY_JOBS = 'subscription { myJobs { ctId status } }';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    maxConcurrentRequestsPerCaller: MAX_IN_FLIGHT,
    websocket: {
      allowedOrigins: [],
      maxSubscriptionsPerSocket: 10,
      maxSubscriptionsPerUser: MAX_SUBSCRIPTIONS_PER_USER,
      maxSocketsPerCredential: 10,
      maxSocketsPerAddress: 50,
      maxMessageBytes: 64 * 1024,
      maxMessagesPerSecond: 100,
      maxMessagesPerSecondPerCaller: 1000,
    },
  });
}, 120_000);
afterAll(() => app.close());

/** A POST /graphql whose body never completes: it holds one in-flight slot of its caller until destroyed. */
async function heldRequest(headers: Record<string, string> = {}): Promise<net.Socket> {
  const { port } = new URL(app.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const lines = [
    'POST /graphql HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    'Content-Length: 1000',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n{"query":`);
  socket.on('error', () => undefined);
  return socket;
}

/** Holds `count` requests and waits until the server has counted them (a ping request sees the effect). */
async function hold(count: number, headers: Record<string, string> = {}): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < count; i++) sockets.push(await heldRequest(headers));
  // The server reads the headers as they come; a round trip of another connection lets it catch up.
  await new HttpClient(app.url).get('/healthz');
  return sockets;
}

const release = async (sockets: net.Socket[]) => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await new HttpClient(app.url).get('/healthz');
};

const wallet = (headers: Record<string, string>) => fetch(`${app.url}/api/v1/wallet/`, { headers });

describe('one in-flight budget per caller', () => {
  it('counts a made-up Authorization against its address, and a verified key as its own caller', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = (await issueKey(client)).key;
    // The key authenticates once: from then on it is its own caller.
    expect((await wallet({ authorization: `Token ${key}` })).status).toBe(200);

    const anonymous = await hold(MAX_IN_FLIGHT);
    try {
      for (let i = 0; i < 3; i++) {
        const random = await wallet({ authorization: `Token sdc_${Math.random().toString(36).slice(2)}` });
        expect(random.status).toBe(429);
        expect(random.headers.get('retry-after')).toBe('1');
      }
      const graphql = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Token made-up' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(graphql.status).toBe(429);
      // The verified key is another caller: its budget is untouched.
      expect((await wallet({ authorization: `Token ${key}` })).status).toBe(200);
    } finally {
      await release(anonymous);
    }
    expect((await wallet({ authorization: 'Token made-up' })).status).toBe(401);
  });

  it('shares one budget between HTTP requests and socket operations of the same key', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = (await issueKey(client)).key;
    const other = (await issueKey(client)).key;
    expect((await wallet({ authorization: `Token ${key}` })).status).toBe(200);
    const socket = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await socket.acked).toBe(true);
    const ask = async (s: RawSocket, id: string) => {
      s.subscribe(id, '{ wallet { balanceCredits } }');
      return s.next((m) => m.id === id && (m.type === 'next' || m.type === 'error'));
    };
    expect((await ask(socket, 'before')).type).toBe('next');

    const held = await hold(MAX_IN_FLIGHT, { authorization: `Token ${key}` });
    try {
      const refused = await ask(socket, 'during');
      expect(refused.type).toBe('error');
      expect(JSON.stringify(refused.payload)).toContain('too_many_requests');
      expect((await wallet({ authorization: `Token ${key}` })).status).toBe(429);
      // The socket stays open, and another key of the same user has its own budget.
      const second = openSocket(app.url, { params: { authorization: `Token ${other}` } });
      expect(await second.acked).toBe(true);
      expect((await ask(second, 'other')).type).toBe('next');
      second.close();
    } finally {
      await release(held);
    }
    expect((await ask(socket, 'after')).type).toBe('next');
    socket.close();
  });

  it('holds a slot per socket query: the budget is back once each completes', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = (await issueKey(client)).key;
    const socket = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await socket.acked).toBe(true);
    // Many more operations in sequence than the budget: each released its slot.
    for (let i = 0; i < MAX_IN_FLIGHT * 3; i++) {
      socket.subscribe(`q${i}`, '{ wallet { balanceCredits } }');
      expect((await socket.next((m) => m.id === `q${i}` && m.type !== 'next')).type).toBe('complete');
    }
    socket.close();
  });
});

describe('subscriptions per user', () => {
  it('refuse the one past the cap across sockets and keys with 4429, and count a closed one back', async () => {
    const { client } = await signedIn(app.url, app.services);
    const keys = [(await issueKey(client)).key, (await issueKey(client)).key];
    const sockets = keys.map((key) => openSocket(app.url, { params: { authorization: `Token ${key}` } }));
    for (const socket of sockets) expect(await socket.acked).toBe(true);
    const open = async (socket: RawSocket, id: string) => {
      socket.subscribe(id, MY_JOBS);
      socket.send({ type: 'ping' });
      await socket.next((m) => m.type === 'pong');
    };
    await open(sockets[0], 'a');
    await open(sockets[0], 'b');
    await open(sockets[1], 'c');
    expect(sockets.flatMap((s) => s.messages).filter((m) => m.type === 'error')).toEqual([]);

    // A third socket, by session, of the same user: the fourth subscription closes it.
    const extra = openSocket(app.url, { cookie: `sessionid=${client.cookie('sessionid')}` });
    expect(await extra.acked).toBe(true);
    extra.subscribe('d', MY_JOBS);
    expect((await extra.closed).code).toBe(4429);
    expect((await extra.closed).reason).toContain('WS_MAX_SUBSCRIPTIONS_PER_USER');

    // Another user is not affected.
    const stranger = await signedIn(app.url, app.services);
    const theirs = openSocket(app.url, { cookie: `sessionid=${stranger.client.cookie('sessionid')}` });
    expect(await theirs.acked).toBe(true);
    await open(theirs, 'x');
    expect(theirs.messages.filter((m) => m.type === 'error')).toEqual([]);
    theirs.close();

    // Completing one gives its place back.
    sockets[0].send({ id: 'a', type: 'complete' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await open(sockets[1], 'e');
    expect(sockets[1].messages.filter((m) => m.type === 'error')).toEqual([]);
    for (const socket of sockets) socket.close();
  });
  it('refuse a subscription past the cap before parsing it, and still answer queries', async () => {
    const { client } = await signedIn(app.url, app.services);
    const key = (await issueKey(client)).key;
    const full = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await full.acked).toBe(true);
    for (const id of ['a', 'b', 'c']) full.subscribe(id, MY_JOBS);
    full.send({ type: 'ping' });
    await full.next((m) => m.type === 'pong');
    expect(full.messages.filter((m) => m.type === 'error')).toEqual([]);

    // Past the cap: a query is answered, an unparseable query gets its parse error, and the socket stays open.
    const reader = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await reader.acked).toBe(true);
    reader.subscribe('q', '{ wallet { balanceCredits } }');
    expect((await reader.next((m) => m.id === 'q')).type).toBe('next');
    reader.subscribe('broken', '{ wallet { balanceCredits ');
    const parseError = await reader.next((m) => m.id === 'broken');
    expect(JSON.stringify(parseError.payload)).toContain('GRAPHQL_PARSE_FAILED');
    reader.close();

    // An unparseable subscription is refused for the cap (4429), not answered with a parse error: the count is
    // checked before the parser runs.
    const late = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await late.acked).toBe(true);
    late.subscribe('d', 'subscription { myJobs { ctId ');
    const closed = await late.closed;
    expect(closed.code).toBe(4429);
    expect(closed.reason).toContain('WS_MAX_SUBSCRIPTIONS_PER_USER');
    expect(late.messages.filter((m) => m.id === 'd' && JSON.stringify(m.payload).includes('GRAPHQL_PARSE_FAILED'))).toEqual([]);
    full.close();
  });
});
