import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { Credentials } from './callers';

/** What a cell saw, reduced to what expectations compare. */
export interface Observation {
  status: number;
  body?: unknown;
  contentType?: string;
  location?: string;
  text?: string;
}

export type Payload = { json: unknown } | { form: FormData } | { urlencoded: Record<string, string> } | { xml: string };

export interface UploadFile {
  name: string;
  content: string;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function cookieHeader(credentials: Credentials, extra: string[] = []): string | undefined {
  const parts = [...extra];
  if (credentials.sessionToken) parts.push(`sessionid=${credentials.sessionToken}`);
  if (credentials.csrfToken) parts.push(`csrftoken=${credentials.csrfToken}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** The headers of a caller, as a browser or script would send them: the CSRF header only on unsafe methods. */
function credentialHeaders(credentials: Credentials, method: string, extraCookies: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  if (credentials.authorization) headers.authorization = credentials.authorization;
  if (credentials.apiKey) headers['x-api-key'] = credentials.apiKey;
  const cookie = cookieHeader(credentials, extraCookies);
  if (cookie) headers.cookie = cookie;
  if (credentials.csrfToken && UNSAFE.has(method)) headers['x-csrftoken'] = credentials.csrfToken;
  return headers;
}

async function observe(response: Response): Promise<Observation> {
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  const text = await response.text();
  let body: unknown;
  if (contentType === 'application/json' && text) body = JSON.parse(text);
  return { status: response.status, body, contentType, location: response.headers.get('location') ?? undefined, text };
}

/** One HTTP request without any client state (no cookie jar), so cells never leak credentials into each other. */
export async function sendHttp(
  baseUrl: string,
  method: string,
  path: string,
  credentials: Credentials,
  payload?: Payload,
  extra: { headers?: Record<string, string>; cookies?: string[] } = {},
): Promise<Observation> {
  const headers = { ...credentialHeaders(credentials, method, extra.cookies), ...extra.headers };
  let body: string | FormData | undefined;
  if (payload && 'json' in payload) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(payload.json);
  } else if (payload && 'form' in payload) body = payload.form;
  else if (payload && 'urlencoded' in payload) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(payload.urlencoded).toString();
  } else if (payload && 'xml' in payload) {
    headers['content-type'] = 'application/xml';
    body = payload.xml;
  }
  return observe(await fetch(baseUrl + path, { method, headers, body, redirect: 'manual' }));
}

/** A GraphQL operation; files go out as a GraphQL multipart request (with Apollo's preflight header). */
export interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown>;
  files: Array<{ path: string; file: UploadFile }>;
}

/** `simple` sends the request a cross-site form could send: text/plain (or multipart) and no preflight header. */
export async function sendGraphQL(
  baseUrl: string,
  credentials: Credentials,
  request: GraphQLRequest,
  field: string,
  simple: boolean,
): Promise<Observation> {
  const headers = credentialHeaders(credentials, 'POST');
  delete headers['x-csrftoken'];
  let body: string | FormData;
  if (request.files.length) {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: request.query, variables: request.variables }));
    form.append('map', JSON.stringify(Object.fromEntries(request.files.map((f, i) => [String(i), [f.path]]))));
    request.files.forEach((f, i) => form.append(String(i), new Blob([f.file.content]), f.file.name));
    body = form;
    if (!simple) headers['apollo-require-preflight'] = 'true';
  } else {
    headers['content-type'] = simple ? 'text/plain' : 'application/json';
    body = JSON.stringify({ query: request.query, variables: request.variables });
  }
  const observed = await observe(await fetch(`${baseUrl}/graphql`, { method: 'POST', headers, body }));
  return graphQLResult(observed, field);
}

const stripLocations = (errors: Array<Record<string, unknown>>) => errors.map(({ message, extensions }) => ({ message, extensions }));

/** A GraphQL answer as `{data: <the field>}` or `{errors: [{message, extensions}]}`. */
function graphQLResult(observed: Observation, field: string): Observation {
  const json = observed.body as { data?: Record<string, unknown> | null; errors?: Array<Record<string, unknown>> } | undefined;
  if (!json) return { status: observed.status, text: observed.text };
  if (json.errors) return { status: observed.status, body: { errors: stripLocations(json.errors) } };
  return { status: observed.status, body: { data: json.data?.[field] } };
}

/** Subscribes over graphql-ws and reports the first item, error or refused connection (its close code). `poke`
 * runs until something arrives, for streams that only speak on a change. */
export function subscribeOnce(
  baseUrl: string,
  credentials: Credentials,
  request: GraphQLRequest,
  field: string,
  poke?: () => Promise<void>,
  timeoutMs = 15_000,
): Promise<Observation> {
  const cookie = cookieHeader(credentials);
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, cookie ? { headers: { cookie } } : {});
      }
    },
    connectionParams: credentials.authorization ? { authorization: credentials.authorization } : {},
    retryAttempts: 0,
    lazy: false,
  });
  return new Promise<Observation>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined = undefined;
    const settle = (observation: Observation) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void client.dispose();
      resolve(observation);
    };
    timer = setTimeout(() => settle({ status: 0, text: `nothing within ${timeoutMs} ms` }), timeoutMs);
    client.subscribe<Record<string, unknown>>(
      { query: request.query, variables: request.variables },
      {
        next: (value) =>
          settle(
            value.errors
              ? { status: 200, body: { errors: stripLocations(value.errors as never) } }
              : { status: 200, body: { data: value.data?.[field] } },
          ),
        error: (error) => {
          if (Array.isArray(error)) settle({ status: 200, body: { errors: stripLocations(error) } });
          else if (error && typeof (error as { code?: unknown }).code === 'number') {
            const close = error as { code: number; reason: string };
            settle({ status: close.code, body: { reason: close.reason } });
          } else settle({ status: -1, text: String(error) });
        },
        complete: () => settle({ status: 200, text: 'completed without an item' }),
      },
    );
    if (poke) {
      const again = async () => {
        while (!settled) {
          await poke();
          await new Promise((r) => setTimeout(r, 250));
        }
      };
      void again();
    }
  });
}
