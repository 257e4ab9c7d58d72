import { startTestApp, type TestApp } from '../support/app';

/** Headers on every response (issue 30, point 8): `nosniff` everywhere, frame protection on every HTML page, and
 * of swagger-ui-dist only the two files the docs page loads. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers, redirect: 'manual' });

it('sends nosniff on every response, JSON, HTML, errors and unknown paths alike', async () => {
  for (const path of ['/healthz', '/api/v1/wallet/', '/api/v1/catalog/', '/nowhere', '/api/openapi.json', '/', '/api/docs/']) {
    const res = await get(path);
    expect({ path, nosniff: res.headers.get('x-content-type-options') }).toEqual({ path, nosniff: 'nosniff' });
  }
});

it('forbids framing every HTML page: the landing page, the API docs, GraphiQL', async () => {
  const pages = [
    ['/', { accept: 'text/html' }],
    ['/api/docs/', { accept: 'text/html' }],
    ['/graphql', { accept: 'text/html' }],
  ] as const;
  for (const [path, headers] of pages) {
    const res = await get(path, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect({ path, frame: res.headers.get('x-frame-options') }).toEqual({ path, frame: 'DENY' });
  }
});

it('serves only the Swagger UI files the docs page uses', async () => {
  const page = await (await get('/api/docs/')).text();
  const used = [...page.matchAll(/\/api\/docs\/assets\/([\w.-]+)/g)].map((m) => m[1]);
  expect(used.sort()).toEqual(['swagger-ui-bundle.js', 'swagger-ui.css']);
  for (const file of used) {
    const res = await get(`/api/docs/assets/${file}`);
    expect({ file, status: res.status }).toEqual({ file, status: 200 });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  }
  for (const file of ['swagger-initializer.js', 'index.html', 'swagger-ui-bundle.js.map', 'swagger-ui.js', 'package.json', 'oauth2-redirect.html']) {
    const res = await get(`/api/docs/assets/${file}`);
    expect({ file, status: res.status }).toEqual({ file, status: 404 });
  }
});
