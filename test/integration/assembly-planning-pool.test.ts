import { parseAssemblyRequest } from '../../src/parsers/assembly.parser';
import { assemblyShape } from '../../src/workers/assembly-shape';
import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/** Planning off the event loop (issue 30, point 6; `npm run build` first: the pool's threads load dist/): the
 * assembly plan of a large tree (its references, what it mints, its estimate id) is computed in the worker pool,
 * over REST and GraphQL, and answers exactly what the same function computes in place; a small tree is planned in
 * place, where a pool round trip would cost more than the walk. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const tree = (leaves: number) => ({
  title: `Planned ${leaves}`,
  data: {
    label: 'Planned Data',
    components: Array.from({ length: leaves }, (_, i) => ({ label: `Field ${i}`, data_type: i % 2 ? 'XdCount' : 'XdString' })),
  },
});

it('plans a large tree in the worker pool and a small one in place, with the same answer as in place', async () => {
  const { client } = await signedIn(app.url, app.services, { credits: 1000 });
  const key = client.withToken((await issueKey(client, { scopes: ['read', 'build'] })).key);
  const run = jest.spyOn(app.services.cpu, 'run');
  try {
    const large = tree(5_000);
    const res = await key.post('/api/v1/dmgen/assemble/estimate/', large);
    expect(res.status).toBe(200);
    const shapes = run.mock.calls.filter(([module, name]) => module === 'assembly' && name === 'shape');
    expect(shapes).toHaveLength(1);
    // The thread's answer is the in-place one.
    const inPlace = assemblyShape(parseAssemblyRequest(large));
    expect(res.body.estimate_id).toBe(inPlace.estimateId);
    expect(res.body.mint).toHaveLength(inPlace.mint.length);
    expect(res.body.mint[17]).toMatchObject({ path: inPlace.mint[17].path, label: inPlace.mint[17].label });

    const gql = await key.graphql('query ($input: AssemblyInput!) { estimate(input: $input) { estimateId } }', {
      input: {
        title: large.title,
        data: { label: 'Planned Data', components: large.data.components.map((c) => ({ label: c.label, dataType: c.data_type })) },
      },
    });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.estimate.estimateId).toBe(inPlace.estimateId);
    expect(run.mock.calls.filter(([module]) => module === 'assembly')).toHaveLength(2);

    run.mockClear();
    const small = await key.post('/api/v1/dmgen/assemble/estimate/', tree(20));
    expect(small.status).toBe(200);
    expect(run.mock.calls.filter(([module]) => module === 'assembly')).toHaveLength(0);
    expect(small.body.estimate_id).toBe(assemblyShape(parseAssemblyRequest(tree(20))).estimateId);
  } finally {
    run.mockRestore();
  }
}, 120_000);
