import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { getIntrospectionQuery } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/app';
import { expectWithinBaseline, msOf } from '../support/baseline';
import { HostileInputs, rawBody as bodyOf, rawExchange, rawStatus as statusOf } from '../support/hostile';
import { issueKey, makeUser, PASSWORD, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';

/** Interface A and GraphQL under hostile input: every answer is a clear 4xx in the contract's shape, nothing is
 * stored, the process keeps serving and its memory stays bounded. (Interface B: app-hostile.test.ts.) */
const WINDOW_SECONDS = 60;
let app: TestApp;
let client: HttpClient;
let key: string;
let rssBefore = 0;

beforeAll(async () => {
  app = await startTestApp({ loginMaxFailuresPerAccount: 3, loginMaxFailuresPerAddress: 10, loginWindowSeconds: WINDOW_SECONDS });
  ({ client } = await signedIn(app.url, app.services, { credits: 100_000 }));
  key = (await issueKey(client)).key;
  rssBefore = process.memoryUsage().rss;
});
afterAll(async () => {
  console.log(`studio-hostile: hostile inputs tried: ${hostileInputs.size}`);
  await app?.close();
});

/** The control requests that show the limits let legitimate use through are not counted. */
const hostileInputs = new HostileInputs();

const STORED_TABLES = ['components', 'clusters', 'data_models', 'jobs', 'data_sources', 'ledger_entries', 'api_keys', 'projects', 'users'];

async function storedCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of STORED_TABLES) counts[table] = (await app.services.db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  return counts;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** One request over node:http (bytes sent as given), optionally from another loopback address. */
function send(
  method: string,
  path: string,
  options: { body?: Buffer | string; headers?: Record<string, string | Buffer>; from?: string; control?: boolean } = {},
): Promise<Answer> {
  if (!options.control) void hostileInputs.add(method, path, options.headers, options.body, options.from);
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method,
      path,
      localAddress: options.from,
      headers: options.headers as http.OutgoingHttpHeaders,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const asKey = (extra: Record<string, string | Buffer> = {}) => ({ authorization: `Token ${key}`, 'content-type': 'application/json', ...extra });

/** A raw request, counted, then sent on a fresh connection. */
function raw(request: Buffer): Promise<string> {
  void hostileInputs.add('raw', request);
  return rawExchange(app.url, request);
}

async function stillServing(): Promise<void> {
  const res = await fetch(`${app.url}/api/v1/auth/me/`, { headers: { authorization: `Token ${key}` } });
  expect(res.status).toBe(200);
}

/** A chain of `depth` clusters, each with `perLevel` new components, written as text (JSON.stringify recurses). */
function deepTree(depth: number, perLevel: number, names = { dataType: 'data_type' }): string {
  const components = (level: number) =>
    Array.from({ length: perLevel }, (_, i) => `{"label":"C${level}-${i}","${names.dataType}":"XdString"}`).join(',');
  let open = '';
  for (let level = 1; level < depth; level++) open += `{"label":"L${level}","components":[${components(level)}],"clusters":[`;
  return `${open}{"label":"L${depth}","components":[{"label":"Leaf","${names.dataType}":"XdString"}]}${']}'.repeat(depth - 1)}`;
}

const wideTree = (nodes: number) =>
  JSON.stringify({ label: 'Root', components: Array.from({ length: nodes }, (_, i) => ({ label: `C${i}`, data_type: 'XdCount' })) });

describe('JSON trees on the estimate and assemble routes', () => {
  const estimate = (body: string) => send('POST', '/api/v1/dmgen/assemble/estimate/', { body, headers: asKey() });
  const assemble = (body: string) => send('POST', '/api/v1/dmgen/assemble/', { body, headers: asKey() });

  it.each([
    ['100,000 components in one cluster', () => wideTree(100_000), /more than 10000 nodes/],
    ['clusters nested 10,000 deep', () => deepTree(10_000, 0), /nesting deeper than 64 clusters/],
    ['100,000 nodes nested 10,000 deep', () => deepTree(10_000, 9), /nesting deeper than 64 clusters|more than 10000 nodes/],
  ])(
    '%s: 400 malformed_tree with details, nothing stored',
    async (_label, tree, reason) => {
      const before = await storedCounts();
      const body = `{"title":"Hostile","data":${tree()}}`;
      expect(body.length).toBeLessThan(5 * 1024 * 1024);
      for (const route of [estimate, assemble]) {
        const res = await route(body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error_type: 'malformed_tree', error: expect.any(String), details: expect.any(Object) });
        expect(JSON.stringify(res.body.details)).toMatch(reason);
      }
      expect(await storedCounts()).toEqual(before);
    },
    30_000,
  );

  it('JSON nested 100,000 arrays deep: 400 in the contract shape', async () => {
    const res = await estimate(`{"title":"x","data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_type: expect.any(String), error: expect.any(String) });
  });

  it('a body above the 5 MB limit: 413 payload_too_large, nothing stored', async () => {
    const before = await storedCounts();
    const body = `{"title":"Huge","data":${wideTree(200_000)}}`;
    expect(body.length).toBeGreaterThan(5 * 1024 * 1024);
    for (const route of [estimate, assemble]) {
      const res = await route(body);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: expect.any(String), error_type: 'payload_too_large' });
    }
    expect(await storedCounts()).toEqual(before);
  });

  it('the same trees through GraphQL: a GraphQL client error with a clear code, nothing stored', async () => {
    const before = await storedCounts();
    const query = JSON.stringify('query($input: AssemblyInput!) { estimate(input: $input) { totalCredits } }');
    const variables = (data: string) => `{"query":${query},"variables":{"input":{"title":"T","data":${data}}}}`;
    const wide = JSON.stringify({ label: 'R', components: Array.from({ length: 100_000 }, () => ({ label: 'x', dataType: 'XdString' })) });
    const attempts: Array<[string, string, number, string]> = [
      ['variables 100 clusters deep', variables(deepTree(100, 0, { dataType: 'dataType' })), 200, 'malformed_tree'],
      ['variables 10,000 clusters deep', variables(deepTree(10_000, 0, { dataType: 'dataType' })), 400, 'BAD_USER_INPUT'],
      ['variables with 100,000 components', variables(wide), 413, 'PAYLOAD_TOO_LARGE'],
      [
        'an inline literal 10,000 deep',
        JSON.stringify({
          query: `{ estimate(input: { title: "Deep", data: ${'{ label: "L", clusters: ['.repeat(10_000)}{ label: "x" }${']}'.repeat(10_000)} }) { totalCredits } }`,
        }),
        400,
        'QUERY_TOO_COMPLEX',
      ],
    ];
    for (const [label, body, status, code] of attempts) {
      const res = await send('POST', '/graphql', { body, headers: asKey() });
      expect({ label, status: res.status, code: res.body?.errors?.[0]?.extensions?.code }).toEqual({ label, status, code });
    }
    expect(await storedCounts()).toEqual(before);
    await stillServing();
  }, 30_000);
});

/** One operation over graphql-ws (no retry); resolves with what the server sent: data or errors. */
function overWebSocket(query: string, options: { control?: boolean } = {}): Promise<{ data?: unknown; errors?: any[] }> {
  if (!options.control) void hostileInputs.add('ws', query);
  const ws = createClient({
    url: app.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Token ${key}` },
    retryAttempts: 0,
  });
  return new Promise<{ data?: unknown; errors?: any[] }>((resolve) => {
    let result: { data?: unknown; errors?: any[] } = {};
    ws.subscribe(
      { query },
      {
        next: (value) => (result = value as typeof result),
        error: (error) => resolve({ errors: Array.isArray(error) ? error : [error] }),
        complete: () => resolve(result),
      },
    );
  }).finally(() => ws.dispose());
}

describe('GraphQL depth and cost limits (12 levels, 500 selections, 50 root fields by default)', () => {
  const nested = (levels: number) => `{ catalogModel(ctId: "nope") { root { ${'children { '.repeat(levels - 3)}label${' }'.repeat(levels - 3)} } } }`;
  const gql = (query: string, control = false) => send('POST', '/graphql', { body: JSON.stringify({ query }), headers: asKey(), control });
  const refused = (res: Answer) => {
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Query too (deep|complex)/),
      extensions: { code: 'QUERY_TOO_COMPLEX', maxDepth: 12, maxCost: 500, maxRootFields: 50 },
    });
  };

  it('a query at the depth limit runs; one level deeper is refused before it runs', async () => {
    const atLimit = await gql(nested(12), true);
    expect(atLimit.body.errors[0].extensions.code).toBe('not_found');
    refused(await gql(nested(13)));
    refused(await gql(nested(10_000 / 3)));
  });

  it('wide and aliased queries: thousands of fields or aliases are refused; 50 root aliases run, 51 do not', async () => {
    refused(await gql(`{ me { ${'email '.repeat(6000)} } }`));
    refused(await gql(`{ ${Array.from({ length: 3000 }, (_, i) => `a${i}: me { email }`).join(' ')} }`));
    refused(await gql(`{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`));
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { email }`).join(' ')} }`;
    const fine = await gql(aliases(50), true);
    expect(fine.status).toBe(200);
    expect(Object.keys(fine.body.data)).toHaveLength(50);
    const over = await gql(aliases(51));
    refused(over);
    expect(over.body.errors[0].message).toContain('GRAPHQL_MAX_ROOT_FIELDS');
    const viaFragment = await gql(`{ ...Q } fragment Q on Query { ${Array.from({ length: 51 }, (_, i) => `a${i}: __typename`).join(' ')} }`);
    expect(viaFragment.body.errors[0].message).toContain('more than 50 root fields');
  });

  it('fragments that expand exponentially, and fragment cycles, are refused quickly', async () => {
    const fragments = ['fragment F0 on User { email }', ...Array.from({ length: 40 }, (_, i) => `fragment F${i + 1} on User { ...F${i} ...F${i} }`)];
    // The baseline: two small queries with one fragment each, answered a moment before.
    const baseline = await msOf(async () => {
      for (let i = 0; i < 2; i++) await gql('{ me { ...F } } fragment F on User { email }', true);
    });
    const hostile = await msOf(async () => {
      refused(await gql(`{ me { ...F40 } } ${fragments.join(' ')}`));
      const cycle = await gql('{ me { ...A } } fragment A on User { email ...B } fragment B on User { ...A }');
      expect(cycle.status).toBe(400);
      expect(cycle.body.errors.map((e: any) => e.extensions.code)).toContain('GRAPHQL_VALIDATION_FAILED');
    });
    expectWithinBaseline(hostile, baseline, 300);
  });

  it('GraphiQL introspection stays within the limits', async () => {
    const res = await gql(getIntrospectionQuery(), true);
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('the same limits hold over WebSocket, for queries and subscriptions', async () => {
    const deep = await overWebSocket(nested(13));
    expect(deep.errors?.[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
    const wide = await overWebSocket(`subscription { jobUpdated(ctId: "nope") { ${'ctId '.repeat(6000)} } }`);
    expect(wide.errors?.[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
    const nestedDocument = await overWebSocket(nested(10_000 / 3));
    expect(nestedDocument.errors?.[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
    const syntax = await overWebSocket('{ me { email }');
    expect(syntax.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Syntax Error/), extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    const unknown = await overWebSocket('{ me { password } }');
    expect(unknown.errors?.[0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const fine = await overWebSocket('{ me { email } }', { control: true });
    expect(fine.data).toEqual({ me: { email: expect.any(String) } });
  });
});

describe('oversized and unreadable headers', () => {
  it.each([
    ['Authorization', `Token ${'k'.repeat(1024 * 1024)}`],
    ['Cookie', `sessionid=${'s'.repeat(1024 * 1024)}`],
    ['X-CSRFToken', 'c'.repeat(1024 * 1024)],
  ])('a 1 MB %s header is refused by Node with 431 before the app; the process keeps serving', async (name, value) => {
    const response = await raw(
      Buffer.from(`POST /api/v1/dmgen/assemble/estimate/ HTTP/1.1\r\nHost: x\r\n${name}: ${value}\r\nContent-Length: 2\r\n\r\n{}`),
    );
    expect(statusOf(response)).toBe(431);
    expect(bodyOf(response)).toMatchObject({ error_code: 'REQUEST_HEADERS_TOO_LARGE' });
    await stillServing();
  });

  it('a 1 MB header on the WebSocket upgrade is refused the same way', async () => {
    const response = await raw(
      Buffer.from(
        `GET /graphql HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\nCookie: ${'s'.repeat(1024 * 1024)}\r\n\r\n`,
      ),
    );
    expect(statusOf(response)).toBe(431);
    await stillServing();
  });

  it('keys just under the header limit (10 kB) are 401 not_authenticated, on REST and GraphQL', async () => {
    const rest = await send('GET', '/api/v1/auth/me/', { headers: { authorization: `Token ${'k'.repeat(10 * 1024)}` } });
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ error_type: 'not_authenticated' });
    const graphql = await send('POST', '/graphql', {
      body: '{"query":"{ me { email } }"}',
      headers: { authorization: `Token ${'k'.repeat(10 * 1024)}`, 'content-type': 'application/json' },
    });
    expect(graphql.body.errors[0].extensions.code).toBe('not_authenticated');
  });

  it('a 900 kB key in the WebSocket init payload is refused and the socket closed', async () => {
    void hostileInputs.add('ws init', 900 * 1024);
    const socket = new WebSocket(app.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Token ${'k'.repeat(900 * 1024)}` } }));
    const [code] = await new Promise<[number]>((resolve) => socket.once('close', (c) => resolve([c])));
    expect(code).toBe(4403);
    await stillServing();
  });
});

describe('invalid UTF-8 everywhere', () => {
  const BAD = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]);
  const withBad = (before: string, after: string) => Buffer.concat([Buffer.from(before), BAD, Buffer.from(after)]);

  it('JSON bodies: 400 invalid_request naming UTF-8, nothing stored', async () => {
    const before = await storedCounts();
    const cases: Array<[string, string, Buffer, Record<string, string>]> = [
      ['POST', '/api/v1/auth/login/', withBad('{"email":"a@example.org","password":"', '"}'), { 'content-type': 'application/json' }],
      [
        'POST',
        '/api/v1/dmgen/assemble/estimate/',
        withBad('{"title":"T', '","data":{"label":"R","components":[{"label":"x","data_type":"XdString"}]}}'),
        asKey(),
      ],
      [
        'POST',
        '/api/v1/dmgen/assemble/',
        withBad('{"title":"T","data":{"label":"R', '","components":[{"label":"x","data_type":"XdString"}]}}'),
        asKey(),
      ],
      [
        'POST',
        '/api/v1/auth/api-tokens/',
        withBad('{"name":"k', '"}'),
        {
          'content-type': 'application/json',
          cookie: `sessionid=${client.cookie('sessionid')}; csrftoken=${client.cookie('csrftoken')}`,
          'x-csrftoken': client.cookie('csrftoken')!,
        },
      ],
    ];
    for (const [method, path, body, headers] of cases) {
      const res = await send(method, path, { body, headers });
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { error: expect.stringMatching(/UTF-8/), error_type: 'invalid_request' },
      });
    }
    const graphql = await send('POST', '/graphql', { body: withBad('{"query":"{ me { email } }","variables":{"x":"', '"}}'), headers: asKey() });
    expect(graphql.status).toBe(400);
    expect(graphql.body.errors[0]).toMatchObject({ message: expect.stringMatching(/UTF-8/), extensions: { code: 'BAD_REQUEST' } });
    expect(await storedCounts()).toEqual(before);
  });

  it('percent-encoded invalid UTF-8: 400 naming the URL in a path, a 4xx or an empty result in a query string', async () => {
    for (const path of ['/api/v1/jobs/%FF%FE/', '/api/v1/catalog/dm/%C0%AF/', '/api/v1/auth/api-tokens/%ED%A0%80/revoke/']) {
      const res = await send(path.endsWith('revoke/') ? 'POST' : 'GET', path, { headers: asKey() });
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { error: expect.stringMatching(/^Malformed URL/), error_type: 'invalid_request' },
      });
    }
    const kind = await send('GET', '/api/v1/jobs/?kind=%FF&data_source=%ED%A0%80', { headers: asKey() });
    expect(kind).toMatchObject({ status: 400, body: { error_type: 'invalid_request', details: { kind: expect.any(Array) } } });
    const page = await send('GET', '/api/v1/catalog/components/?search=%FF%C3%28&page=%FF', { headers: asKey() });
    expect(page).toMatchObject({ status: 400, body: { error_type: 'invalid_request', details: { page: expect.any(Array) } } });
    const search = await send('GET', '/api/v1/catalog/dms/?search=%E0%80', { headers: asKey() });
    expect(search).toMatchObject({ status: 200, body: [] });
  });

  it('raw bytes in the request line and in headers: 400 or 401, never 500, and the process keeps serving', async () => {
    const requests = [
      Buffer.concat([
        Buffer.from('GET /api/v1/jobs/'),
        BAD,
        Buffer.from(`/ HTTP/1.1\r\nHost: x\r\nAuthorization: Token ${key}\r\nConnection: close\r\n\r\n`),
      ]),
      Buffer.concat([
        Buffer.from('GET /api/v1/auth/me/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Token '),
        BAD,
        Buffer.from('\r\n\r\n'),
      ]),
      Buffer.concat([
        Buffer.from('GET /api/v1/auth/me/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: sessionid='),
        BAD,
        Buffer.from('\r\n\r\n'),
      ]),
      Buffer.concat([
        Buffer.from(
          `POST /api/v1/auth/api-tokens/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\nCookie: sessionid=${client.cookie('sessionid')}\r\nX-CSRFToken: `,
        ),
        BAD,
        Buffer.from('\r\n\r\n{}'),
      ]),
    ];
    const statuses: number[] = [];
    for (const request of requests) statuses.push(statusOf(await raw(request)));
    expect(statuses).toEqual([400, 401, 401, 403]);
    await stillServing();
  });

  it('a JSON body declared in another charset is 415, gzip bombs are cut off at the body limit with 413', async () => {
    const latin1 = await send('POST', '/api/v1/dmgen/assemble/estimate/', {
      body: '{}',
      headers: asKey({ 'content-type': 'application/json; charset=latin1' }),
    });
    expect(latin1.status).toBe(415);
    expect(latin1.body).toMatchObject({ error_type: 'unsupported_media_type' });
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const res = await send('POST', '/api/v1/dmgen/assemble/estimate/', { body: bomb, headers: asKey({ 'content-encoding': 'gzip' }) });
    expect(res.status).toBe(413);
    expect(res.body.error_type).toBe('payload_too_large');
  });
});

describe('repeated failed sign-ins', () => {
  const login = (email: string, password: string, from: string) =>
    send('POST', '/api/v1/auth/login/', {
      body: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json' },
      from,
      control: password === PASSWORD,
    });

  it('per address: ten failures on any accounts throttle that address with 429, not the account from elsewhere', async () => {
    const user = await makeUser(app.services);
    for (let i = 0; i < 10; i++) expect((await login(`nobody-${i}@example.org`, 'guess', '127.0.0.2')).status).toBe(400);
    const throttled = await login(user.email, PASSWORD, '127.0.0.2');
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ error_type: 'too_many_attempts', retry_after_seconds: WINDOW_SECONDS });
    expect(throttled.headers['retry-after']).toBe(String(WINDOW_SECONDS));
    expect((await login(user.email, PASSWORD, '127.0.0.3')).status).toBe(200);
    app.clock.advance((WINDOW_SECONDS + 1) * 1000);
    expect((await login(user.email, PASSWORD, '127.0.0.2')).status).toBe(200);
  });

  it('per account: a guesser locks the account for one window only; its attempts while locked do not extend it', async () => {
    const user = await makeUser(app.services);
    for (let i = 0; i < 3; i++) expect((await login(user.email, 'guess', '127.0.0.4')).status).toBe(400);
    expect((await login(user.email, PASSWORD, '127.0.0.5')).status).toBe(429);
    app.clock.advance((WINDOW_SECONDS / 2) * 1000);
    for (let i = 0; i < 20; i++) expect((await login(user.email, 'guess', '127.0.0.4')).status).toBe(429);
    app.clock.advance((WINDOW_SECONDS / 2 + 1) * 1000);
    expect((await login(user.email, PASSWORD, '127.0.0.5')).status).toBe(200);
    expect((await login(user.email, 'guess', '127.0.0.4')).status).toBe(400);
  });

  it('GraphQL sign-in shares the throttle: extensions.code too_many_attempts', async () => {
    const user = await makeUser(app.services);
    const mutation = JSON.stringify({ query: `mutation { login(email: "${user.email}", password: "guess") { csrfToken } }` });
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await send('POST', '/graphql', { body: mutation, headers: { 'content-type': 'application/json' }, from: '127.0.0.6' });
      codes.push(res.body.errors[0].extensions.code);
    }
    expect(codes).toEqual(['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'too_many_attempts']);
  });
});

describe('after all of it', () => {
  it('the process still serves and its memory grew by less than 300 MB', async () => {
    await stillServing();
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
  });
});
