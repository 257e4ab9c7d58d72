import { startTestApp, type TestApp } from '../support/app';
import { libraryComponent } from '../support/catalog-factories';
import { issueKey, signedIn } from '../support/factories';
import { openSocket } from '../support/raw-socket';

/** What a caller can learn about things that are not theirs: other users' drafts, and the schema through
 * validation hints. */
const ESTIMATE = '/api/v1/dmgen/assemble/estimate/';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ graphqlSuggestions: false });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('an estimate naming a ct_id that is not the caller to see', () => {
  jest.setTimeout(60_000);

  it("answers another user's draft exactly as a ct_id that does not exist; the owner still hears 'unpublished'", async () => {
    const owner = await signedIn(app.url, app.services);
    const stranger = await signedIn(app.url, app.services);
    const draft = await libraryComponent(app.services, { status: 'draft', ownerId: owner.user.id });
    const missing = 'a'.repeat(draft.ctId.length);
    const problemFor = async (client: typeof owner.client, ctId: string) => {
      const res = await client.post(ESTIMATE, { title: 'T', data: { label: 'R', components: [{ ct_id: ctId }] } });
      expect(res.status).toBe(200);
      return JSON.stringify((res.body as { problems: unknown }).problems).replaceAll(ctId, '<ct_id>');
    };
    expect(await problemFor(stranger.client, draft.ctId)).toBe(await problemFor(stranger.client, missing));
    expect(await problemFor(owner.client, draft.ctId)).toContain('"problem":"unpublished"');
  });
});

describe('GraphQL field suggestions off (GRAPHQL_SUGGESTIONS=false, the production default)', () => {
  jest.setTimeout(60_000);

  it('a misspelt field is refused without "Did you mean", over HTTP and over WebSocket', async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ mee { email } }' }),
    });
    const body = (await res.json()) as { errors: Array<{ message: string }> };
    expect(body.errors[0].message).toBe('Cannot query field "mee" on type "Query".');

    const { client } = await signedIn(app.url, app.services);
    const { key } = await issueKey(client);
    const socket = openSocket(app.url, { params: { authorization: `Token ${key}` } });
    expect(await socket.acked).toBe(true);
    socket.subscribe('typo', 'subscription { myJob { ctId } }');
    const error = await socket.next((m) => m.id === 'typo' && m.type === 'error');
    expect(error.payload).toEqual([expect.objectContaining({ message: 'Cannot query field "myJob" on type "Subscription".' })]);
    socket.close();
  });

  it('introspection stays open to anonymous callers (the schema is published)', async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
    });
    expect(await res.json()).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});
