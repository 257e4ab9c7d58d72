import { startTestApp, type TestApp } from '../support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Landing = { name: string; links: Record<string, { title: string; href: string }> };

describe('GET /', () => {
  it('answers JSON to a client that does not ask for HTML, with links that all answer', async () => {
    const res = await fetch(`${app.url}/`, { headers: { accept: '*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Landing;
    expect(Object.keys(body.links)).toEqual(['graphql', 'account', 'catalog', 'api-docs', 'openapi', 'admin', 'health', 'ready', 'metrics']);
    for (const { href } of Object.values(body.links)) {
      expect(href.startsWith(app.url)).toBe(true);
      const linked = await fetch(href, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect([200, 301, 303]).toContain(linked.status);
    }
  });

  it('answers a small HTML page to a browser', async () => {
    const res = await fetch(`${app.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const href of ['/graphql', '/account/', '/catalog/', '/api/docs/', '/api/openapi.json', '/admin/', '/healthz', '/metrics'])
      expect(html).toContain(`href="${href}"`);
  });

  it('in ROLE=app links no GraphQL, and no metrics when METRICS=off', async () => {
    const appRole = await startTestApp({ role: 'app', metrics: 'off' }, { workers: false });
    try {
      const body = (await (await fetch(`${appRole.url}/`)).json()) as Landing;
      expect(Object.keys(body.links)).toEqual(['api-docs', 'openapi', 'admin', 'health', 'ready']);
    } finally {
      await appRole.close();
    }
  });
});
