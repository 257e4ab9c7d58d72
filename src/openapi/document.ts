import { anyJson, constant, obj, str, type JsonSchema } from '../lib/json-schema';
import { isAppApiRoute, type AnyRoute, type ResponseDoc } from '../rest-compat/route-table';

/** The OpenAPI 3.1 description of a route table (both REST interfaces, or Interface B alone in ROLE=app), built
 * from each route's `doc`: nothing here names a path. */

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs/';

/** Interface A renders every error once (src/http/errors.ts): the message and the contract's `error_type`, then
 * the error's own fields (402 adds the dollar amounts, 400 `details`, 429 `retry_after_seconds`, …). */
const studioErrorSchema = obj({ error: str(), error_type: str() });
/** Interface B's two error bodies (src/lib/app-api-errors.ts): per endpoint `{code, message, details}`, general
 * `{error: <message>, errors, error_code}`. */
const appErrorSchema = obj({
  success: constant(false),
  error: { anyOf: [str(), obj({ code: str(), message: str(), details: anyJson }, ['details'])] },
});

const errorResponses = (app: boolean) => {
  const content = { 'application/json': { schema: app ? appErrorSchema : studioErrorSchema } };
  return {
    '4XX': { description: app ? 'Interface B error (per-endpoint or general format).' : 'Interface A error.', content },
    '5XX': { description: 'Server-side failure or a dependency unavailable (retry later).', content },
  };
};

/** `/api/v1/jobs/:ctId/` → `/api/v1/jobs/{ctId}/`, with the names of its parameters. */
export function openApiPath(expressPath: string): { path: string; parameters: string[] } {
  const parameters: string[] = [];
  const path = expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    parameters.push(name);
    return `{${name}}`;
  });
  return { path, parameters };
}

function responseObject(doc: ResponseDoc) {
  if (!doc.schema && !doc.contentType) return { description: doc.description };
  const content: Record<string, { schema: JsonSchema }> = { [doc.contentType ?? 'application/json']: { schema: doc.schema ?? {} } };
  for (const [type, schema] of Object.entries(doc.alternatives ?? {})) content[type] = { schema };
  return { description: doc.description, content };
}

function security(route: AnyRoute) {
  if (route.requirement === 'public') return [{}, { tokenAuth: [] }, { sessionCookie: [] }];
  if (isAppApiRoute(route)) return [{ appKey: [] }];
  if (route.requirement === 'session' || route.requirement === 'staff') return [{ sessionCookie: [] }];
  return [{ tokenAuth: [] }, { sessionCookie: [] }];
}

function operation(route: AnyRoute) {
  const app = isAppApiRoute(route);
  const { parameters } = openApiPath(route.path);
  const doc = route.doc;
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(doc?.responses ?? {})) responses[status] = responseObject(response);
  Object.assign(responses, errorResponses(app));
  return {
    operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, '')}`,
    summary: doc?.summary ?? 'Undocumented route',
    ...(doc?.description ? { description: doc.description } : {}),
    tags: [doc?.tag ?? (app ? 'Interface B' : 'Interface A')],
    'x-requirement': route.requirement,
    ...(route.idempotent ? { 'x-idempotent': true } : {}),
    security: security(route),
    parameters: [
      ...parameters.map((name) => ({ name, in: 'path', required: true, schema: str() })),
      ...Object.entries(doc?.query ?? {}).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
      ...(route.idempotent ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: str() }] : []),
    ],
    ...(doc?.requestBody
      ? {
          requestBody: { required: doc.requestBody.required ?? true, content: { [doc.requestBody.contentType]: { schema: doc.requestBody.schema } } },
        }
      : {}),
    responses,
  };
}

export interface OpenApiOptions {
  serverUrl: string;
  version: string;
  /** ROLE=app serves Interface B alone. */
  appOnly: boolean;
}

export function buildOpenApiDocument(routes: AnyRoute[], options: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { path } = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: options.appOnly ? 'SDC4 generated application API (Interface B)' : 'sdc-gateway REST API (Interfaces A and B)',
      version: options.version,
      description:
        'Generated from the route table. Interface A: the studio (session cookie + X-CSRFToken, or `Authorization: Token <key>`); ' +
        'Interface B: the generated application (`X-API-Key`). GraphQL is at /graphql.',
    },
    servers: [{ url: options.serverUrl }],
    components: {
      securitySchemes: {
        tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Token <key>`' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sessionid', description: 'unsafe methods also need X-CSRFToken' },
        appKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      schemas: { StudioError: studioErrorSchema, AppError: appErrorSchema },
    },
    paths,
  };
}
