import { GraphStoreClient } from '../../src/rdf/graph-store-client';
import { TriplestoreError } from '../../src/rdf/triplestore';
import { startVirtuoso, type VirtuosoServer } from '../support/virtuoso';

const GRAPH = 'urn:test:graph-store:people';
const TURTLE = `@prefix ex: <http://example.org/> .
ex:alice ex:knows ex:bob ; ex:name "Alice"@en .
ex:bob ex:name "Bob" .`;
const RDF_XML = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <rdf:Description rdf:about="http://example.org/carol"><ex:name>Carol</ex:name></rdf:Description>
</rdf:RDF>`;
const N_TRIPLES =
  '<http://example.org/dave> <http://example.org/name> "Dave" .\n<http://example.org/dave> <http://example.org/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .\n';

const namesIn = (graph: string) => `SELECT ?name WHERE { GRAPH <${graph}> { ?s <http://example.org/name> ?name } } ORDER BY STR(?name)`;

let virtuoso: VirtuosoServer;

beforeAll(async () => {
  virtuoso = await startVirtuoso();
}, 120_000);

afterAll(async () => {
  await virtuoso?.dispose();
});

describe.each([
  ['Basic', () => ({ graphStoreUrl: virtuoso.graphStoreUrl, queryUrl: virtuoso.queryUrl })],
  ['Digest', () => ({ graphStoreUrl: virtuoso.digestGraphStoreUrl, queryUrl: virtuoso.digestQueryUrl })],
])('GraphStoreClient against Virtuoso with %s authentication', (scheme, endpoints) => {
  const graph = `${GRAPH}:${scheme}`;
  const client = () => new GraphStoreClient({ ...endpoints(), user: virtuoso.user, password: virtuoso.password, timeoutMs: 10_000 });

  it('replaces a graph with Turtle, RDF/XML and N-Triples bodies, counting its triples each time', async () => {
    const store = client();
    await store.replaceGraph(graph, TURTLE, 'text/turtle');
    expect(await store.tripleCount(graph)).toBe(3);
    expect(await store.select(namesIn(graph))).toEqual([{ name: 'Alice' }, { name: 'Bob' }]);

    await store.replaceGraph(graph, RDF_XML, 'application/rdf+xml');
    expect(await store.tripleCount(graph)).toBe(1);
    expect(await store.select(namesIn(graph))).toEqual([{ name: 'Carol' }]);

    await store.replaceGraph(graph, N_TRIPLES, 'application/n-triples');
    expect(await store.select(`SELECT ?age WHERE { GRAPH <${graph}> { ?s <http://example.org/age> ?age } }`)).toEqual([{ age: '42' }]);
  });

  it('drops a graph, and dropping a missing graph succeeds', async () => {
    const store = client();
    await store.replaceGraph(graph, TURTLE, 'text/turtle');
    await store.dropGraph(graph);
    expect(await store.tripleCount(graph)).toBe(0);
    await expect(store.dropGraph(graph)).resolves.toBeUndefined();
  });

  it('sends a long SELECT as a form-encoded POST', async () => {
    const store = client();
    await store.replaceGraph(graph, TURTLE, 'text/turtle');
    const filler = ' '.repeat(2000);
    expect(await store.select(`${namesIn(graph)}${filler}`)).toEqual([{ name: 'Alice' }, { name: 'Bob' }]);
  });

  it('refuses a wrong password with a 401 TriplestoreError', async () => {
    const store = new GraphStoreClient({ ...endpoints(), user: virtuoso.user, password: 'wrong', timeoutMs: 10_000 });
    const failure = store.replaceGraph(graph, TURTLE, 'text/turtle');
    await expect(failure).rejects.toBeInstanceOf(TriplestoreError);
    await expect(failure).rejects.toMatchObject({ status: 401 });
  });
});

describe('GraphStoreClient when Virtuoso goes down and comes back', () => {
  it('fails clearly while the server is down and works again after restart, with the data kept', async () => {
    const graph = `${GRAPH}:restart`;
    const store = new GraphStoreClient({
      graphStoreUrl: virtuoso.graphStoreUrl,
      queryUrl: virtuoso.queryUrl,
      user: virtuoso.user,
      password: virtuoso.password,
      timeoutMs: 5_000,
    });
    await store.replaceGraph(graph, TURTLE, 'text/turtle');

    await virtuoso.stop();
    const down = store.tripleCount(graph);
    await expect(down).rejects.toBeInstanceOf(TriplestoreError);
    await expect(down).rejects.toThrow(/triplestore unreachable: GET http:\/\/127\.0\.0\.1:\d+\/sparql-basic: ECONNREFUSED/);
    await expect(store.replaceGraph(graph, RDF_XML, 'application/rdf+xml')).rejects.toThrow(/unreachable: PUT/);

    await virtuoso.restart();
    expect(await store.tripleCount(graph)).toBe(3);
    await store.replaceGraph(graph, RDF_XML, 'application/rdf+xml');
    expect(await store.select(namesIn(graph))).toEqual([{ name: 'Carol' }]);
  }, 120_000);

  it('recovers after a crash (SIGKILL) too', async () => {
    const graph = `${GRAPH}:crash`;
    const store = new GraphStoreClient({
      graphStoreUrl: virtuoso.digestGraphStoreUrl,
      queryUrl: virtuoso.digestQueryUrl,
      user: virtuoso.user,
      password: virtuoso.password,
      timeoutMs: 5_000,
    });
    await store.replaceGraph(graph, TURTLE, 'text/turtle');
    await virtuoso.kill();
    await expect(store.tripleCount(graph)).rejects.toThrow(/unreachable/);
    await virtuoso.restart();
    await store.replaceGraph(graph, N_TRIPLES, 'application/n-triples');
    expect(await store.tripleCount(graph)).toBe(2);
  }, 120_000);
});
