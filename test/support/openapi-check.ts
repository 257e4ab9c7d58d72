import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { JsonSchema } from '../../src/lib/json-schema';
import { buildOpenApiDocument } from '../../src/openapi/document';
import { ROUTES, STUDIO_ROUTES } from '../../src/rest-compat/routes';
import type { RecordedResponse } from './openapi-recorder';
import { schemaErrors } from './schema-check';

/** Checks recorded responses against the OpenAPI document: each (method, route, status) must be documented (an
 * exact status, or the interface's 4XX/5XX), with the response's media type, and a JSON body must match its
 * schema. Responses to paths that are no route (unknown paths, 405s) are not the document's business, and neither
 * are studio paths asked of a ROLE=app process, which serves no studio route and answers them as any unknown path:
 * 404 in Interface B's general format. */

type Content = Record<string, { schema?: JsonSchema }>;
type Operation = { responses: Record<string, { content?: Content }> };
export type OpenApiPaths = Record<string, Record<string, Operation>>;

/** `/api/v1/jobs/{ctId}/` as Express matches it: case-insensitive, a trailing slash optional. */
function pathPattern(template: string): RegExp {
  const body = template
    .replace(/\/$/, '')
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}/?$`, 'i');
}

export interface CheckResult {
  checked: number;
  problems: string[];
}

/** Interface A's paths, which a ROLE=app process does not serve. */
const STUDIO_PATHS = STUDIO_ROUTES.map((route) => pathPattern(route.path.replace(/:(\w+)/g, '{$1}')));

/** The general-format 404 of a process that does not serve the path at all (ROLE=app asked for a studio path). */
function isUnservedPath(record: RecordedResponse): boolean {
  const body = record.body as { success?: unknown; error_code?: unknown } | undefined;
  const general404 = record.status === 404 && body?.success === false && body.error_code === 'NOT_FOUND';
  return general404 && STUDIO_PATHS.some((pattern) => pattern.test(record.path));
}

export function checkResponses(document: { paths: OpenApiPaths }, records: RecordedResponse[]): CheckResult {
  const routes = Object.entries(document.paths).map(([template, operations]) => ({ template, pattern: pathPattern(template), operations }));
  const problems = new Map<string, string>();
  let checked = 0;
  const problem = (key: string, message: string, record: RecordedResponse) =>
    problems.has(key) || problems.set(key, `${message} (seen in ${path.basename(record.test) || 'a test'})`);
  for (const record of records) {
    const method = record.method.toLowerCase();
    const route = routes.find((r) => r.operations[method] && r.pattern.test(record.path));
    if (!route || isUnservedPath(record)) continue;
    checked += 1;
    const name = `${record.method} ${route.template}`;
    const responses = route.operations[method].responses;
    const documented = responses[String(record.status)] ?? responses[`${Math.floor(record.status / 100)}XX`];
    if (!documented) {
      problem(`${name} ${record.status}`, `${name} answered ${record.status}, which its doc.responses does not declare`, record);
      continue;
    }
    const mediaType = record.contentType.split(';')[0].trim().toLowerCase();
    if (!documented.content) {
      if (mediaType)
        problem(`${name} ${record.status} body`, `${name} answered ${record.status} with a ${mediaType} body; its doc declares none`, record);
      continue;
    }
    const content = documented.content[mediaType] ?? documented.content['*/*'];
    if (!content) {
      const declared = Object.keys(documented.content).join(', ');
      problem(
        `${name} ${record.status} ${mediaType}`,
        `${name} answered ${record.status} as ${mediaType || '(no type)'}; its doc declares ${declared}`,
        record,
      );
      continue;
    }
    if (record.body === undefined || !content.schema || !/json/.test(mediaType)) continue;
    const errors = schemaErrors(content.schema, record.body);
    if (errors.length) {
      problem(
        `${name} ${record.status} schema ${errors.join()}`,
        `${name} ${record.status} body does not match its schema: ${errors.join('; ')}`,
        record,
      );
    }
  }
  return { checked, problems: [...problems.values()] };
}

/** Reads what the recorder wrote during the run. */
function readRecordedResponses(dir: string): RecordedResponse[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) =>
      readFileSync(path.join(dir, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RecordedResponse),
    );
}

/** The global teardown's step: fails the run, naming each route and status, when a response is not described. */
export function validateRecordedResponses(dir: string | undefined): void {
  if (!dir) return;
  const records = readRecordedResponses(dir);
  rmSync(dir, { recursive: true, force: true });
  if (records.length === 0) return;
  const document = buildOpenApiDocument(ROUTES, { serverUrl: 'http://localhost', version: 'test', appOnly: false });
  const { checked, problems } = checkResponses(document as unknown as { paths: OpenApiPaths }, records);
  if (problems.length === 0) {
    console.log(`OpenAPI check: ${checked} REST responses match /api/openapi.json.`);
    return;
  }
  throw new Error(
    `OpenAPI check: ${problems.length} problem(s) in ${checked} REST responses; document each in the route's \`doc\` ` +
      `(README: API description and metrics):\n  - ${problems.join('\n  - ')}`,
  );
}
