import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/** Namespace prefixes per user (issue 30, point 8): a prefix used to be global and first-come, so the first user
 * to register `ex` (or, before the well-known prefixes were reserved, `foaf`) made everyone else's registration a
 * 409 or gave them the squatter's URI. Now each user's prefixes are their own: another user's neither blocks nor
 * hijacks them, through REST and GraphQL, in the list and in the predicates that name a prefix. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function tool() {
  const { client } = await signedIn(app.url, app.services);
  return client.withToken((await issueKey(client)).key);
}

it("neither blocks nor hijacks another user's prefix", async () => {
  const squatter = await tool();
  const victim = await tool();
  const squat = await squatter.post('/api/v1/dmgen/namespaces/', { abbrev: 'ex', uri: 'https://squatter.example/ns#' });
  expect(squat.status).toBe(201);

  // The victim's own `ex`, for its own URI: created, not a 409 and not the squatter's namespace.
  const mine = await victim.post('/api/v1/dmgen/namespaces/', { abbrev: 'ex', uri: 'https://victim.example/vocab#' });
  expect(mine.status).toBe(201);
  expect(mine.body).toMatchObject({ abbrev: 'ex', uri: 'https://victim.example/vocab#' });
  expect(mine.body.id).not.toBe(squat.body.id);
  // The same pair again answers it; the user's own prefix for another URI is still a 409.
  expect((await victim.post('/api/v1/dmgen/namespaces/', { abbrev: 'ex', uri: 'https://victim.example/vocab#' })).body.id).toBe(mine.body.id);
  const clash = await victim.post('/api/v1/dmgen/namespaces/', { abbrev: 'ex', uri: 'https://other.example/#' });
  expect(clash.status).toBe(409);
  expect(clash.body).toMatchObject({ error_type: 'namespace_exists' });

  // A predicate naming `ex` uses the caller's own namespace.
  const namespaceOf = async (predicateId: number) =>
    Number((await app.services.db.query('SELECT namespace_id FROM predicates WHERE id = $1', [predicateId]))[0].namespace_id);
  const predicate = await victim.post('/api/v1/dmgen/predicates/', { ns_abbrev: 'ex', class_name: 'measures' });
  expect(predicate.status).toBe(201);
  expect(predicate.body).toMatchObject({ ns_prefix: 'ex', class_name: 'measures' });
  expect(await namespaceOf(predicate.body.id)).toBe(Number(mine.body.id));
  const theirs = await squatter.post('/api/v1/dmgen/predicates/', { ns_abbrev: 'ex', class_name: 'measures' });
  expect(theirs.status).toBe(201);
  expect(await namespaceOf(theirs.body.id)).toBe(Number(squat.body.id));
  // Another user's namespace by id is no one else's to use.
  expect((await victim.post('/api/v1/dmgen/predicates/', { ns_abbrev: squat.body.id, class_name: 'x' })).status).toBe(404);

  // Each list holds the shared namespaces and the viewer's own, never another user's.
  const listed = async (client: Awaited<ReturnType<typeof tool>>) =>
    ((await client.get('/api/v1/dmgen/namespaces/?page_size=200')).body.results as Array<{ abbrev: string; uri: string }>).filter(
      (n) => n.abbrev === 'ex' || n.abbrev === 'skos',
    );
  expect(await listed(victim)).toEqual([
    expect.objectContaining({ abbrev: 'skos' }),
    expect.objectContaining({ abbrev: 'ex', uri: 'https://victim.example/vocab#' }),
  ]);
  const gql = await victim.graphql('{ semanticNamespaces(pageSize: 200) { results { abbrev uri } } }');
  const exes = (gql.body.data.semanticNamespaces.results as Array<{ abbrev: string; uri: string }>).filter((n) => n.abbrev === 'ex');
  expect(exes).toEqual([{ abbrev: 'ex', uri: 'https://victim.example/vocab#' }]);

  // Over GraphQL too, a third user's `ex` is theirs.
  const third = await tool();
  const created = await third.graphql('mutation { createSemanticNamespace(input: { abbrev: "ex", uri: "https://third.example/#" }) { abbrev uri } }');
  expect(created.body.errors).toBeUndefined();
  expect(created.body.data.createSemanticNamespace).toEqual({ abbrev: 'ex', uri: 'https://third.example/#' });
});
