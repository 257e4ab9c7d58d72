import { startTestApp, type TestApp } from '../support/app';
import { signedIn } from '../support/factories';

/** The route index answers a route's exact path before Express; every other spelling Express's router accepts
 * (no trailing slash, another case) falls through to it. Both must answer alike, headers included. */
describe('route index and the Express fallback', () => {
  jest.setTimeout(60_000);
  let app: TestApp;
  let appKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    appKey = (await app.services.app.keys.create({ organization: 'Index Org', contactEmail: 'index@org.test' })).plaintext;
  });
  afterAll(() => app?.close());

  const answer = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${app.url}${path}`, init);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'x-request-id' && name !== 'date') headers[name] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  };

  it('answers an Interface B route alike under both matchers', async () => {
    const init = { headers: { 'x-api-key': appKey } };
    const exact = await answer('/api/v1/whoami/', init);
    expect(exact.status).toBe(200);
    expect(JSON.parse(exact.body)).toMatchObject({ success: true, data: { organization: 'Index Org' } });
    expect(await answer('/api/v1/whoami', init)).toEqual(exact);
    expect(await answer('/API/V1/WHOAMI/', init)).toEqual(exact);
    const refused = await answer('/api/v1/whoami/');
    expect(refused.status).toBe(401);
    expect(await answer('/api/v1/whoami')).toEqual(refused);
  });

  it('answers a studio route with a parameter and a JSON body alike under both matchers', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 10_000 });
    const created = await client.post('/api/v1/auth/api-tokens/', { name: 'index-a', scopes: ['read', 'build'] });
    expect(created.status).toBe(201);
    const token = (created.body as { key: string }).key;
    const init = { headers: { authorization: `Token ${token}` } };
    const list = await answer('/api/v1/auth/api-tokens/', init);
    expect(list.status).toBe(200);
    expect(await answer('/api/v1/auth/api-tokens', init)).toEqual(list);
    const unknownJob = await answer('/api/v1/jobs/no-such-job/', init);
    expect(unknownJob.status).toBe(404);
    expect(await answer('/api/v1/jobs/no-such-job', init)).toEqual(unknownJob);
    // A malformed JSON body is refused in the studio's shape on both paths, after authentication.
    const bad = { method: 'POST', headers: { ...init.headers, 'content-type': 'application/json' }, body: '{"name": ' };
    const badExact = await answer('/api/v1/dmgen/assemble/estimate/', bad);
    expect(badExact.status).toBe(400);
    expect(await answer('/api/v1/dmgen/assemble/estimate', bad)).toEqual(badExact);
    expect(JSON.parse(badExact.body)).toMatchObject({ error_type: expect.any(String) });
  });

  it('answers health checks and HEAD under the index', async () => {
    expect(await answer('/healthz')).toEqual({ status: 200, headers: expect.any(Object), body: '{"status":"ok"}' });
    const head = await fetch(`${app.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
