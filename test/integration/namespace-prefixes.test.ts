import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/** Namespace prefixes (issue 30, point 8): the well-known ones (foaf, prov, xsd, dcterms, …) are reserved to
 * their real URIs, so nobody can squat one; registering one with its real URI gives the shared namespace, the
 * same for everyone and owned by no one. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function tool() {
  const { client } = await signedIn(app.url, app.services);
  return client.withToken((await issueKey(client)).key);
}

it('refuses a well-known prefix for another URI, in any case, and shares it for its own', async () => {
  const squatter = await tool();
  for (const abbrev of ['foaf', 'FOAF', 'prov', 'xsd', 'dcterms']) {
    const res = await squatter.post('/api/v1/dmgen/namespaces/', { abbrev, uri: 'https://squatter.example/ns#' });
    expect({ abbrev, status: res.status, type: res.body.error_type }).toEqual({ abbrev, status: 409, type: 'namespace_reserved' });
  }
  const foaf = await squatter.post('/api/v1/dmgen/namespaces/', { abbrev: 'foaf', uri: 'https://squatter.example/ns#' });
  expect(foaf.body).toMatchObject({ abbrev: 'foaf', uri: 'http://xmlns.com/foaf/0.1/' });

  // The real URI: the first registration creates the shared namespace, a second user gets the same one.
  const first = await squatter.post('/api/v1/dmgen/namespaces/', { abbrev: 'foaf', uri: 'http://xmlns.com/foaf/0.1/' });
  expect([200, 201]).toContain(first.status);
  const second = await (await tool()).post('/api/v1/dmgen/namespaces/', { abbrev: 'foaf', uri: 'http://xmlns.com/foaf/0.1/' });
  expect([200, 201]).toContain(second.status);
  expect(second.body.id).toBe(first.body.id);
  const owner = await app.services.db.query(`SELECT owner_id FROM namespaces WHERE abbrev = 'foaf'`);
  expect(owner).toEqual([{ owner_id: null }]);

  // Other prefixes stay open to anyone.
  expect((await squatter.post('/api/v1/dmgen/namespaces/', { abbrev: 'mine', uri: 'https://mine.example/ns#' })).status).toBe(201);
});
