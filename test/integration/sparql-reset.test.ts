import { saveGraph } from '../../src/rdf/app-graph-store';
import { startAppUnderTest, type AppUnderTest } from './app-helpers';

/** SPARQL after a timeout (issue 30, point 5): a query past SPARQL_TIMEOUT_MS replaces the store's thread with an
 * empty one. Queries queued behind it then either answer from the reloaded store (the right count) or 503
 * STORE_UNAVAILABLE, never a 200 counted on the empty store. */

const TRIPLES = 10_000;
let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest({ sparqlTimeoutMs: 1_500 }, { workers: false });
  const ntriples = Array.from({ length: TRIPLES }, (_, i) => `<urn:n:${i % 100}> <urn:p:${i % 7}> <urn:n:${(i * 31) % 100}> .`).join('\n');
  await saveGraph(app.services.db, { graphUri: 'urn:reset:graph', source: 'instance', ntriples, tripleCount: TRIPLES });
}, 120_000);
afterAll(async () => {
  await app?.services.app.graphs.close();
  await app?.close();
});

const COUNT = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
const SLOW = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }';
const sparql = (query: string) =>
  app.call('GET', `/api/v1/sparql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/sparql-results+json' } });
const countOf = (body: { results: { bindings: Array<{ n: { value: string } }> } }) => Number(body.results.bindings[0].n.value);

it('never answers a queued query from the emptied store', async () => {
  const warm = await sparql(COUNT);
  expect(warm.status).toBe(200);
  // The generated lines repeat: the store holds each distinct triple once.
  const stored = countOf(warm.body);
  expect(stored).toBeGreaterThan(100);

  const slow = sparql(SLOW);
  // The slow query reaches the thread first; these five wait behind it in the store's queue.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const queued = await Promise.all(Array.from({ length: 5 }, () => sparql(COUNT)));
  expect((await slow).status).toBe(422);

  const answers = queued.map((r) => (r.status === 200 ? `200:${countOf(r.body)}` : String(r.status)));
  console.log(`sparql after a timeout: ${answers.join(', ')}`);
  for (const answer of queued) {
    expect([200, 503]).toContain(answer.status);
    if (answer.status === 200) expect(countOf(answer.body)).toBe(stored);
    else {
      expect(answer.body).toMatchObject({ success: false, error_code: 'STORE_UNAVAILABLE' });
      expect(answer.headers.get('retry-after')).toBe('1');
    }
  }
  const after = await sparql(COUNT);
  expect(after.status).toBe(200);
  expect(countOf(after.body)).toBe(stored);
}, 60_000);
