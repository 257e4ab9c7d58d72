import Ajv2020 from 'ajv/dist/2020';
import { openApiPath } from '../../src/openapi/document';
import { APP_API_ROUTES, ROUTES } from '../../src/rest-compat/routes';
import { startTestApp, type TestApp } from '../support/app';
import { checkResponses, type OpenApiPaths } from '../support/openapi-check';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const getDocument = async (url = app.url) => {
  const res = await fetch(`${url}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as { openapi: string; paths: OpenApiPaths & Record<string, Record<string, { summary: string }>> };
};

describe('GET /api/openapi.json', () => {
  it('describes every route of both interfaces with a documented success answer', async () => {
    const document = await getDocument();
    expect(document.openapi).toBe('3.1.0');
    const undocumented = ROUTES.filter((route) => {
      const operation = document.paths[openApiPath(route.path).path]?.[route.method];
      return !operation || !Object.keys(operation.responses).some((status) => /^[23]\d\d$/.test(status));
    }).map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(undocumented).toEqual([]);
  });

  it('holds only schemas ajv (JSON Schema 2020-12) compiles', async () => {
    const document = await getDocument();
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const broken: string[] = [];
    for (const [path, operations] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(operations))
        for (const [status, response] of Object.entries(operation.responses))
          for (const [type, media] of Object.entries(response.content ?? {}))
            try {
              ajv.compile(media.schema ?? {});
            } catch (error) {
              broken.push(`${method} ${path} ${status} ${type}: ${(error as Error).message}`);
            }
    expect(broken).toEqual([]);
  });

  it('in ROLE=app describes Interface B alone', async () => {
    const appRole = await startTestApp({ role: 'app' }, { workers: false });
    try {
      const document = await getDocument(appRole.url);
      expect(Object.keys(document.paths).sort()).toEqual([...new Set(APP_API_ROUTES.map((r) => openApiPath(r.path).path))].sort());
    } finally {
      await appRole.close();
    }
  });
});

describe('GET /api/docs/', () => {
  it('renders the document with Swagger UI served from node_modules (no CDN)', async () => {
    const page = await fetch(`${app.url}/api/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/openapi.json');
    const scripts = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.every((src) => src.startsWith('/'))).toBe(true);
    for (const src of scripts) expect((await fetch(`${app.url}${src}`)).status).toBe(200);
  });
});

describe('the response check the integration suites run at teardown', () => {
  const record = (status: number, body: unknown, contentType = 'application/json; charset=utf-8') => ({
    method: 'GET',
    path: '/api/v1/jobs/abc123/',
    status,
    contentType,
    body,
    test: 'synthetic.test.ts',
  });

  it('names the route and status a doc does not declare, and a body off its schema', async () => {
    const document = await getDocument();
    const { checked, problems } = checkResponses(document, [
      record(201, {}),
      record(200, { ct_id: 7 }),
      record(200, '<xml/>', 'application/xml'),
      record(404, { error: 'Not found.', error_type: 'not_found' }),
      { ...record(404, {}), path: '/api/v1/no-such-route/' },
    ]);
    expect(checked).toBe(4);
    expect(problems).toEqual([
      expect.stringContaining('GET /api/v1/jobs/{ctId}/ answered 201, which its doc.responses does not declare'),
      expect.stringContaining('GET /api/v1/jobs/{ctId}/ 200 body does not match its schema'),
      expect.stringContaining('GET /api/v1/jobs/{ctId}/ answered 200 as application/xml'),
    ]);
  });
});
