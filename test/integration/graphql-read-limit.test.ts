import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { issueKey, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

/** The hourly limit of public reads is one budget per address (anonymous) or per user (with credentials), shared
 * by REST and GraphQL, so switching transport gains nothing; every public root field of a query counts, aliases
 * included. Past it a GraphQL request is a 429 with a GraphQL error body and Retry-After. */

const REST_LIST = '/api/v1/catalog/dms/';
const GQL_LIST = '{ catalogModels { __typename } }';
const HOUR_MS = 3_600_000;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ anonymousReadsPerHour: 5, keyedReadsPerHour: 8 }, { workers: false });
});
afterAll(() => app.close());

/** Moves the test clock to `minutes` past the next full hour: a fresh window for every bucket. */
const toNextHour = (minutes: number) => {
  const t = app.clock.now().getTime();
  app.clock.advance(HOUR_MS - (t % HOUR_MS) + minutes * 60_000);
};

/** One operation over graphql-ws, as an authenticated client sends it; an operation refused before it runs
 * arrives as graphql-ws's `error` message. */
async function overSocket(token: string, query: string): Promise<{ data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> }> {
  const client = createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Token ${token}` },
    retryAttempts: 0,
  });
  try {
    return await new Promise((resolve, reject) => {
      let result: { data?: unknown } = {};
      client.subscribe(
        { query },
        {
          next: (value) => void (result = value as typeof result),
          error: (errors) => (Array.isArray(errors) ? resolve({ errors }) : reject(new Error('socket failed', { cause: errors }))),
          complete: () => resolve(result),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

it('REST and GraphQL anonymous reads share one budget: past it either answers 429 with Retry-After', async () => {
  toNextHour(30);
  const anonymous = new HttpClient(app.url);
  expect((await anonymous.get(REST_LIST)).status).toBe(200);
  expect((await anonymous.get(REST_LIST)).status).toBe(200);
  const read = await anonymous.graphql(GQL_LIST);
  expect(read.status).toBe(200);
  expect(read.body.errors).toBeUndefined();
  expect([read.headers.get('x-ratelimit-limit'), read.headers.get('x-ratelimit-remaining')]).toEqual(['5', '2']);
  expect((await anonymous.get(REST_LIST)).status).toBe(200);
  expect((await anonymous.graphql(GQL_LIST)).status).toBe(200);

  const refused = await anonymous.graphql(GQL_LIST);
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(29 * 60);
  expect(retryAfter).toBeLessThanOrEqual(30 * 60);
  expect(refused.body.data).toBeUndefined();
  expect(refused.body.errors).toEqual([
    {
      message: 'Too many catalog reads: at most 5 an hour. Try again later, or send an API key.',
      extensions: { code: 'rate_limited', status: 429, limit: 5, retryAfterSeconds: retryAfter },
    },
  ]);
  expect((await anonymous.get(REST_LIST)).status).toBe(429);

  toNextHour(0);
  expect((await anonymous.graphql(GQL_LIST)).status).toBe(200);
});

it('counts every public root field of a query, aliases and fragments included, and refuses the whole operation', async () => {
  toNextHour(10);
  const anonymous = new HttpClient(app.url);
  const three = await anonymous.graphql(
    'query { a: catalogModels { __typename } ...more } fragment more on Query { b: catalogIndex { __typename } contextualLibrary { __typename } }',
  );
  expect(three.body.errors).toBeUndefined();
  expect(three.headers.get('x-ratelimit-remaining')).toBe('2');

  const tooMany = await anonymous.graphql('{ a: catalogModels { __typename } b: catalogModels { __typename } c: catalogModels { __typename } }');
  expect(tooMany.status).toBe(429);
  expect(tooMany.body.errors[0].extensions.code).toBe('rate_limited');
  expect(tooMany.body.data).toBeUndefined();

  // Neither an operation without public fields nor a mutation is counted or refused.
  const typename = await anonymous.graphql('{ __typename }');
  expect([typename.status, typename.headers.get('x-ratelimit-remaining')]).toEqual([200, null]);
  const login = await anonymous.graphql('mutation { login(email: "nobody@example.com", password: "wrong") { user { id } } }');
  expect(login.body.errors[0].extensions.code).toBe('invalid_credentials');
});

it('a caller with a key has the keyed budget, over HTTP and WebSocket alike; its non-public reads are not limited', async () => {
  toNextHour(5);
  const owner = await signedIn(app.url, app.services);
  const token = (await issueKey(owner.client)).key;
  const keyed = owner.client.withToken(token);
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await keyed.get(REST_LIST)).status);
  for (let i = 0; i < 3; i++) statuses.push((await keyed.graphql(GQL_LIST)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  expect((await keyed.graphql(GQL_LIST)).headers.get('x-ratelimit-remaining')).toBe('1');
  expect(await overSocket(token, GQL_LIST)).toEqual({ data: { catalogModels: expect.any(Array) } });

  const refused = await overSocket(token, GQL_LIST);
  expect(refused.errors?.[0].extensions).toMatchObject({ code: 'rate_limited', status: 429, limit: 8 });
  expect((await keyed.graphql(GQL_LIST)).status).toBe(429);
  const wallet = await keyed.graphql('{ wallet { balanceCredits } }');
  expect([wallet.status, wallet.body.errors]).toEqual([200, undefined]);
});
