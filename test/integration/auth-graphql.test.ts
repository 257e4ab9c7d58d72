import { issueKey, makeUser, PASSWORD, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ loginMaxFailuresPerAccount: 3, loginMaxFailuresPerAddress: 1000, loginWindowSeconds: 60 });
});
afterAll(() => app.close());

const KEY_FIELDS = 'id name scopes spendLimitCredits spentCredits expiresAt expired status';

describe('sessions', () => {
  it('signs in and out over REST: HttpOnly SameSite=Lax cookie, then 401', async () => {
    const user = await makeUser(app.services);
    const client = new HttpClient(app.url);
    const res = await client.post('/api/v1/auth/login/', { email: user.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sessionid='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect((await client.get('/api/v1/auth/me/')).body.user.email).toBe(user.email);
    expect((await client.post('/api/v1/auth/logout/')).status).toBe(200);
    expect((await client.get('/api/v1/auth/me/')).status).toBe(401);
  });

  it('expires sessions', async () => {
    const { client } = await signedIn(app.url, app.services);
    app.clock.advance(15 * 24 * 3600 * 1000);
    try {
      expect((await client.get('/api/v1/auth/me/')).status).toBe(401);
    } finally {
      app.clock.advance(-15 * 24 * 3600 * 1000);
    }
  });

  it('throttles repeated failures per account with 429, and lets the user in once the window passes', async () => {
    const user = await makeUser(app.services);
    const client = new HttpClient(app.url);
    for (let i = 0; i < 3; i++) expect((await client.post('/api/v1/auth/login/', { email: user.email, password: 'wrong' })).status).toBe(400);
    const throttled = await client.post('/api/v1/auth/login/', { email: user.email, password: PASSWORD });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error_type).toBe('too_many_attempts');
    expect(throttled.headers.get('retry-after')).toBe('60');
    app.clock.advance(61000);
    try {
      expect((await client.post('/api/v1/auth/login/', { email: user.email, password: PASSWORD })).status).toBe(200);
    } finally {
      app.clock.advance(-61000);
    }
  });

  it('changes the profile from a session only', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.patch('/api/v1/auth/profile/', { name: 'Ada', email: 'ada-recovery@example.org' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Ada', email: 'ada-recovery@example.org' });
    expect((await client.patch('/api/v1/auth/profile/', { email: 'not-an-email' })).status).toBe(400);
    const key = await issueKey(client);
    const viaKey = await client.withToken(key.key).patch('/api/v1/auth/profile/', { name: 'x' });
    expect(viaKey.body.error_type).toBe('session_required');
  });
});

describe('GraphQL over the same services', () => {
  it('creates, lists, rotates and revokes keys; errors carry the REST error_type in extensions.code', async () => {
    const user = await makeUser(app.services);
    const client = new HttpClient(app.url);
    const login = await client.graphql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { user { email } csrfToken } }', {
      e: user.email,
      p: PASSWORD,
    });
    expect(login.body.data.login.user.email).toBe(user.email);

    const created = await client.graphql(
      `mutation { createApiKey(input: { name: "gql", scopes: [build], spendLimitCredits: 50 }) { ${KEY_FIELDS} key } }`,
    );
    const key = created.body.data.createApiKey;
    expect(key).toMatchObject({ name: 'gql', scopes: ['read', 'build'], spendLimitCredits: 50, spentCredits: 0, status: 'active' });

    const viaKey = client.withToken(key.key);
    const listed = await viaKey.graphql(`{ apiKeys { ${KEY_FIELDS} } wallet { balanceCredits } }`);
    expect(listed.body.data.apiKeys.map((k: { name: string }) => k.name)).toEqual(['gql']);

    const refused = await viaKey.graphql('mutation { createApiKey(input: { name: "x" }) { id } }');
    expect(refused.body.errors[0].extensions.code).toBe('session_required');

    const rotated = await client.graphql(`mutation { rotateApiKey(id: ${key.id}) { ${KEY_FIELDS} key } }`);
    expect(rotated.body.data.rotateApiKey).toMatchObject({ name: 'gql', spendLimitCredits: 50, status: 'active' });
    const old = await viaKey.graphql('{ me { email } }');
    expect(old.body.errors[0].extensions.code).toBe('not_authenticated');

    const revoked = await client.graphql(`mutation { revokeApiKey(id: ${rotated.body.data.rotateApiKey.id}) { status } }`);
    expect(revoked.body.data.revokeApiKey.status).toBe('revoked');

    const invalid = await client.graphql('mutation { createApiKey(input: { name: "bad", expiresInDays: 0 }) { id } }');
    expect(invalid.body.errors[0].extensions.code).toBe('invalid_request');
  });

  it('needs a caller for every field but login', async () => {
    const anon = new HttpClient(app.url);
    const res = await anon.graphql('{ apiKeys { id } }');
    expect(res.body.errors[0].extensions.code).toBe('not_authenticated');
  });

  it('serves GraphiQL from the package itself', async () => {
    const page = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\/(?!localhost)[a-z]/i);
    for (const asset of ['/_graphiql/graphiql/graphiql.min.js', '/_graphiql/graphiql/graphiql.min.css', '/_graphiql/react/react.production.min.js']) {
      expect(html).toContain(asset);
      expect((await fetch(app.url + asset)).status).toBe(200);
    }
  });
});

describe('GraphQL errors', () => {
  it('never carry a stack trace, even outside production and test', async () => {
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    let dev: TestApp;
    try {
      dev = await startTestApp();
    } finally {
      process.env.NODE_ENV = saved;
    }
    try {
      const res = await new HttpClient(dev.url).graphql('{ me { nope } }');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|node_modules/);
    } finally {
      await dev.close();
    }
  });
});
