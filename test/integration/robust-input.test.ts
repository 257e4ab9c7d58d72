import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { buildGatewaySchema } from '../../src/resolvers/schema';
import { isAppApiRoute } from '../../src/rest-compat/route-table';
import { ROUTES } from '../../src/rest-compat/routes';
import { startTestApp, type TestApp } from '../support/app';
import { signedIn } from '../support/factories';
import { HostileInputs } from '../support/hostile';
import type { HttpClient } from '../support/http';

/** Issue 15, robustness: NUL and lone surrogates never reach a 500 on any REST route or GraphQL argument (400 in the
 * contract's shape instead); RTL, zero-width and 4-byte emoji are accepted; credits are 53-bit safe. */
const REFUSED = { nul: 'a\u0000b', loneHigh: 'x\uD83Dy', loneLow: '\uDE00z' };
const ACCEPTED = { rtl: '\u202Eשלום\u202C', zeroWidth: 'a\u200B\u200Db\uFEFF', emoji: '\u{1F600}\u{1F469}\u200D\u{1F52C}' };
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

let app: TestApp;
let client: HttpClient;
let storageDir: string;
let appKey: string;
const hostile = new HostileInputs();

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'robust-input-'));
  app = await startTestApp({ storageDir });
  ({ client } = await signedIn(app.url, app.services, { credits: 100_000 }));
  appKey = (await app.services.app.keys.create({ organization: 'Robust Org', contactEmail: 'ops@example.org' })).plaintext;
});
afterAll(async () => {
  console.log(`robust-input: hostile inputs tried: ${hostile.size}`);
  await app?.close();
  await rm(storageDir, { recursive: true, force: true });
});

/** Field names the routes read, each given the hostile value (a route ignores the ones it does not know). */
const BODY_FIELDS = ['name', 'title', 'label', 'email', 'password', 'query', 'xml_content', 'organization', 'contact_email', 'search', 'kind', 'id'];

function bodyWith(value: string): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(BODY_FIELDS.map((field) => [field, value]));
  body.data = { label: value, components: [{ label: value, data_type: 'XdString', description: value }] };
  body[`extra${value}`] = value;
  return body;
}

async function call(method: string, route: string, body: unknown, appApi: boolean) {
  await hostile.add(method, route, body);
  const headers: Record<string, string> = appApi ? { 'x-api-key': appKey, 'content-type': 'application/json' } : {};
  const res = appApi
    ? await fetch(app.url + route, { method: method.toUpperCase(), headers, body: method === 'get' ? undefined : JSON.stringify(body) })
    : null;
  if (res) {
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  }
  const answer = await client.request(method.toUpperCase(), route, method === 'get' ? undefined : body);
  return { status: answer.status, body: answer.body as Record<string, unknown> | undefined };
}

/** A value as it can travel in a URL: a lone surrogate as its (invalid) three UTF-8 bytes, percent-encoded. */
const inUrl = (value: string) =>
  [...value]
    .map((c) => {
      const unit = c.charCodeAt(0);
      if (unit < 0xd800 || unit > 0xdfff) return encodeURIComponent(c);
      return [0xed, 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    })
    .join('');

const fill = (pattern: string, value: string) => `${pattern.replace(/:(\w+)/g, () => inUrl(value))}?q=${inUrl(value)}&search=${inUrl(value)}`;

/** Signing out would end the sweep's own session. */
const SWEPT = ROUTES.filter((route) => !route.path.endsWith('/logout/'));

describe('every REST route', () => {
  jest.setTimeout(300_000);

  it.each(Object.entries(REFUSED))('answers %s in a path, a query or a body with 400 in its contract shape', async (_name, value) => {
    const wrong: string[] = [];
    for (const route of SWEPT) {
      const appApi = isAppApiRoute(route);
      const res = await call(route.method, fill(route.path, value), bodyWith(value), appApi);
      // A GET without path parameters carries a lone surrogate only in its query, decoded as U+FFFD: answered normally.
      if (value !== REFUSED.nul && route.method === 'get' && !route.path.includes(':')) {
        if (res.status >= 500) wrong.push(`${route.method} ${route.path}: ${res.status}`);
        continue;
      }
      const shaped = appApi ? res.body?.success === false && typeof res.body.error_code === 'string' : typeof res.body?.error_type === 'string';
      // A route that takes no JSON (multipart, SPARQL) refuses the body by its media type first: a 4xx too.
      const expected = value === REFUSED.nul ? res.status === 400 : res.status >= 400 && res.status < 500;
      if (!expected || !shaped) wrong.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(Object.entries(ACCEPTED))('never answers %s with a 500', async (_name, value) => {
    const failed: string[] = [];
    for (const route of SWEPT) {
      const res = await call(route.method, fill(route.path, value), bodyWith(value), isAppApiRoute(route));
      if (res.status >= 500) failed.push(`${route.method} ${route.path}: ${res.status}`);
    }
    expect(failed).toEqual([]);
  });

  it('refuses the JSON escapes of NUL and of a lone surrogate, not only raw ones', async () => {
    for (const escaped of ['"k\\u0000"', '"k\\ud800"', '"k\\udc00x"']) {
      const res = await fetch(`${app.url}/api/v1/auth/api-tokens/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `sessionid=${client.cookie('sessionid')}`,
          'x-csrftoken': client.cookie('csrftoken')!,
        },
        body: `{"name": ${escaped}}`,
      });
      await hostile.add('escaped', escaped);
      expect({ escaped, status: res.status, type: ((await res.json()) as { error_type?: string }).error_type }).toEqual({
        escaped,
        status: 400,
        type: 'invalid_request',
      });
    }
  });

  it('stores a key name of RTL, zero-width and emoji characters as sent', async () => {
    const name = `${ACCEPTED.rtl}${ACCEPTED.zeroWidth}${ACCEPTED.emoji}`;
    const created = await client.post('/api/v1/auth/api-tokens/', { name });
    expect(created.status).toBe(201);
    const listed = await client.get('/api/v1/auth/api-tokens/');
    expect((listed.body as Array<{ name: string }>).map((k) => k.name)).toContain(name);
  });

  it('answers HEAD and GET on an Interface B POST route with 405 and Allow', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${app.url}/api/v1/validate/xml/`, { method, headers: { 'x-api-key': appKey } });
      expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST' });
    }
    const body = (await (await fetch(`${app.url}/api/v1/upload/zip/`, { headers: { 'x-api-key': appKey } })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, error_code: 'METHOD_NOT_ALLOWED' });
  });
});

interface GraphQLAnswer {
  status: number;
  body: { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

async function graphql(query: string, variables?: Record<string, unknown>): Promise<GraphQLAnswer> {
  const res = await client.graphql(query, variables);
  return { status: res.status, body: res.body as GraphQLAnswer['body'] };
}

/** A value of `type` for a GraphQL variable: the hostile string in every String position. */
function sample(type: GraphQLInputType, value: string, depth = 0): unknown {
  if (isNonNullType(type)) return sample(type.ofType, value, depth);
  if (isListType(type)) return [sample(type.ofType, value, depth)];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    if (depth > 3) return {};
    return Object.fromEntries(Object.values(type.getFields()).map((field) => [field.name, sample(field.type, value, depth + 1)]));
  }
  if (isScalarType(type) && type.name === 'Upload') return null;
  if (isScalarType(type)) return type.name === 'String' || type.name === 'ID' ? value : type.name === 'Boolean' ? false : 1;
  return null;
}

const variablesOf = (args: Array<{ name: string; type: GraphQLInputType }>, value: string) =>
  Object.fromEntries(args.map((arg) => [arg.name, sample(arg.type, value)]));

function operations(schema: GraphQLSchema): Array<{ name: string; query: string; args: Array<{ name: string; type: GraphQLInputType }> }> {
  const result = [];
  for (const [kind, root] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (!field.args.some((arg) => getNamedType(arg.type).name === 'String' || isInputObjectType(getNamedType(arg.type)))) continue;
      const named = getNamedType(field.type);
      const selection = isObjectType(named) || isUnionType(named) ? ' { __typename }' : '';
      const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
      const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
      result.push({ name: field.name, query: `${kind}(${declared}) { ${field.name}(${passed})${selection} }`, args: [...field.args] });
    }
  }
  return result;
}

describe('every GraphQL argument', () => {
  jest.setTimeout(300_000);

  it.each(Object.entries(REFUSED))('answers %s in a variable with a 400 BAD_USER_INPUT, never a 500', async (_name, value) => {
    const schema = await buildGatewaySchema();
    const wrong: string[] = [];
    for (const operation of operations(schema)) {
      const variables = variablesOf(operation.args, value);
      if (JSON.stringify(variables) === JSON.stringify(variablesOf(operation.args, 'plain'))) continue;
      await hostile.add(operation.query, variables);
      const res = await graphql(operation.query, variables);
      const code = res.body?.errors?.[0]?.extensions?.code;
      if (res.status !== 400 || code !== 'BAD_USER_INPUT') wrong.push(`${operation.name}: ${res.status} ${code}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(Object.entries(ACCEPTED))('never answers %s in a variable with an internal error', async (_name, value) => {
    const schema = await buildGatewaySchema();
    const failed: string[] = [];
    for (const operation of operations(schema)) {
      const variables = Object.fromEntries(operation.args.map((arg) => [arg.name, sample(arg.type, value)]));
      await hostile.add(operation.query, variables);
      const res = await graphql(operation.query, variables);
      const codes = (res.body.errors ?? []).map((e) => e.extensions?.code);
      if (res.status >= 500 || codes.includes('INTERNAL_SERVER_ERROR')) failed.push(`${operation.name}: ${res.status} ${codes.join(',')}`);
    }
    expect(failed).toEqual([]);
  });

  it('refuses a \\u0000 escape inside a string literal of the document', async () => {
    const res = await graphql('mutation { createApiKey(input: { name: "a\\u0000b" }) { id } }');
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      message: expect.stringContaining('NUL') as unknown,
    });
  });

  it('answers a subscription sent over HTTP with a 400 that says to use WebSocket', async () => {
    const res = await graphql('subscription { myJobs { ctId } }');
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' }, message: expect.stringContaining('WebSocket') as unknown });
  });
});

describe('credits in GraphQL', () => {
  it('round-trips 2^53-1 as a key limit and as the auto-reload amount', async () => {
    const key = await graphql('mutation($l: SafeInt) { createApiKey(input: { name: "big", spendLimitCredits: $l }) { spendLimitCredits } }', {
      l: MAX_SAFE,
    });
    expect(key.body).toEqual({ data: { createApiKey: { spendLimitCredits: MAX_SAFE } } });
    const wallet = await graphql(
      'mutation($a: SafeInt) { updateAutoReload(input: { amountCredits: $a, thresholdCredits: 2147483648 }) { autoReload { amountCredits thresholdCredits } } }',
      { a: MAX_SAFE },
    );
    expect(wallet.body).toEqual({ data: { updateAutoReload: { autoReload: { amountCredits: MAX_SAFE, thresholdCredits: 2147483648 } } } });
    const read = await graphql('{ wallet { autoReload { amountCredits } } }');
    expect(read.body).toEqual({ data: { wallet: { autoReload: { amountCredits: MAX_SAFE } } } });
  });

  it('refuses 2^53 as not safe', async () => {
    const res = await graphql('mutation($l: SafeInt) { createApiKey(input: { name: "huge", spendLimitCredits: $l }) { id } }', { l: 2 ** 53 });
    expect(res.status).toBe(400);
  });
});
