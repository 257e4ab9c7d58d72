import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { openSocket } from '../support/raw-socket';

/** Expensive GraphQL fields (issue 30, point 6): `estimate` and `assemble` plan a whole model tree on the event
 * loop, so an operation may hold one of them; 50 aliases of a large estimate are refused before anything runs,
 * over HTTP and over WebSocket. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const INPUT = { title: 'Vitals', data: { label: 'Vitals Data', components: [{ label: 'Pulse', dataType: 'XdCount', units: 'beats/min' }] } };
const aliases = (count: number) =>
  `query ($input: AssemblyInput!) { ${Array.from({ length: count }, (_, i) => `e${i}: estimate(input: $input) { totalCredits }`).join(' ')} }`;

it('runs one estimate per operation and refuses a second, aliased or not', async () => {
  const { client } = await signedIn(app.url, app.services, { credits: 1000 });
  const token = (await issueKey(client, { scopes: ['build'] })).key;
  const key = client.withToken(token);
  const one = await key.graphql(aliases(1), { input: INPUT });
  expect(one.body.errors).toBeUndefined();
  expect(one.body.data.e0.totalCredits).toBeGreaterThan(0);

  for (const count of [2, 50]) {
    const many = await key.graphql(aliases(count), { input: INPUT });
    expect(many.status).toBe(400);
    expect(many.body.data).toBeUndefined();
    expect(many.body.errors[0]).toMatchObject({
      message: expect.stringContaining('at most one of estimate, assemble'),
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  }
  // Through a fragment spread twice, too.
  const spread = await key.graphql(`query ($input: AssemblyInput!) { ...E ...E } fragment E on Query { estimate(input: $input) { totalCredits } }`, {
    input: INPUT,
  });
  expect(spread.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');

  const socket = openSocket(app.url, { params: { authorization: `Token ${token}` } });
  expect(await socket.acked).toBe(true);
  socket.send({ id: 'many', type: 'subscribe', payload: { query: aliases(50), variables: { input: INPUT } } });
  const refused = await socket.next((m) => m.id === 'many');
  expect(refused.type).toBe('error');
  expect(JSON.stringify(refused.payload)).toContain('QUERY_TOO_COMPLEX');
  socket.close();
});
