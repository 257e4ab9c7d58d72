import { appendFileSync } from 'node:fs';
import path from 'node:path';

/** Jest setupFile (integration project): records every response a test reads from a service on this machine,
 * for the OpenAPI check the global teardown runs (test/support/openapi-check.ts). Requests go out unchanged; the
 * recorder reads a clone of each response in the background. */
const dir = process.env.OPENAPI_RECORD_DIR;
const MAX_BODY = 2 * 1024 * 1024;
/** Where the REST routes live (GraphQL, admin pages and health are not in the OpenAPI document). */
const REST_PREFIXES = /^\/(api\/|dmlib\/|\.well-known\/)/;

export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string;
  /** The parsed JSON body, when the response was JSON and small enough. */
  body?: unknown;
  test: string;
}

if (dir) {
  const file = path.join(dir, `responses-${process.pid}.jsonl`);
  const original = globalThis.fetch;
  const record = async (method: string, url: URL, response: Response) => {
    const contentType = response.headers.get('content-type') ?? '';
    const entry: RecordedResponse = { method, path: url.pathname, status: response.status, contentType, test: expect.getState().testPath ?? '' };
    if (/^application\/(.+\+)?json\b/i.test(contentType) && Number(response.headers.get('content-length') ?? 0) <= MAX_BODY) {
      try {
        const text = await response.clone().text();
        entry.body = text.length <= MAX_BODY ? JSON.parse(text) : undefined;
      } catch {
        entry.body = '<unreadable JSON>';
      }
    }
    appendFileSync(file, JSON.stringify(entry) + '\n');
  };
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await original(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const local = ['127.0.0.1', 'localhost'].includes(url.hostname);
    if (local && method !== 'HEAD' && REST_PREFIXES.test(url.pathname)) await record(method, url, response).catch(() => undefined);
    return response;
  };
}
