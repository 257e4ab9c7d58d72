import { EmbeddedTriplestore } from '../../../src/rdf/embedded-store';
import { TriplestoreError } from '../../../src/rdf/triplestore';

const G1 = 'urn:test:g1';
const G2 = 'urn:test:g2';
const TURTLE = `@prefix ex: <http://example.org/> .
ex:a ex:p ex:b ; ex:label "A"@en .
ex:b ex:p [ ex:label "blank" ] .`;

describe('EmbeddedTriplestore', () => {
  it('replaces a graph and counts only that graph', async () => {
    const store = new EmbeddedTriplestore();
    await store.replaceGraph(G1, TURTLE, 'text/turtle');
    await store.replaceGraph(G2, '<http://example.org/x> <http://example.org/p> "1" .\n', 'application/n-triples');
    expect(await store.tripleCount(G1)).toBe(4);
    await store.replaceGraph(G1, '<http://example.org/y> <http://example.org/p> "2" .\n', 'application/n-triples');
    expect(await store.tripleCount(G1)).toBe(1);
    expect(await store.tripleCount(G2)).toBe(1);
    expect(store.graphNames()).toEqual([G1, G2]);
  });

  it('keeps the old content when the new document does not parse', async () => {
    const store = new EmbeddedTriplestore();
    await store.replaceGraph(G1, TURTLE, 'text/turtle');
    await expect(store.replaceGraph(G1, '<not turtle', 'text/turtle')).rejects.toBeInstanceOf(TriplestoreError);
    expect(await store.tripleCount(G1)).toBe(4);
  });

  it('selects over the union of named graphs and returns plain strings', async () => {
    const store = new EmbeddedTriplestore();
    await store.replaceGraph(G1, TURTLE, 'text/turtle');
    await store.replaceGraph(G2, '<http://example.org/b> <http://example.org/p> <http://example.org/c> .\n', 'application/n-triples');
    const rows = await store.select('SELECT ?x WHERE { <http://example.org/a> <http://example.org/p>+ ?x FILTER(isIRI(?x)) } ORDER BY ?x');
    expect(rows).toEqual([{ x: 'http://example.org/b' }, { x: 'http://example.org/c' }]);
    expect(await store.select('SELECT ?l WHERE { <http://example.org/a> <http://example.org/label> ?l }')).toEqual([{ l: 'A' }]);
  });

  it('refuses a query that is not a SELECT', async () => {
    await expect(new EmbeddedTriplestore().select('ASK { ?s ?p ?o }')).rejects.toThrow('select() needs a SELECT query');
  });

  it('drops a graph, and dropping a missing graph succeeds', async () => {
    const store = new EmbeddedTriplestore();
    await store.replaceGraph(G1, TURTLE, 'text/turtle');
    await store.dropGraph(G1);
    await store.dropGraph(G1);
    expect(await store.tripleCount(G1)).toBe(0);
    expect(store.graphNames()).toEqual([]);
  });

  it('rebuilds from its N-Quads dump graph by graph', async () => {
    const original = new EmbeddedTriplestore();
    await original.replaceGraph(G1, TURTLE, 'text/turtle');
    await original.replaceGraph(G2, '<http://example.org/x> <http://example.org/p> "1" .\n', 'application/n-triples');
    const rebuilt = new EmbeddedTriplestore();
    for (const graph of original.graphNames()) rebuilt.loadNQuads(original.dumpGraphNQuads(graph));
    expect(rebuilt.graphNames()).toEqual([G1, G2]);
    expect(await rebuilt.tripleCount(G1)).toBe(4);
    expect(rebuilt.dumpGraphNQuads(G2)).toBe(original.dumpGraphNQuads(G2));
    expect(original.dumpGraphNQuads(G2)).toBe(`<http://example.org/x> <http://example.org/p> "1" <${G2}> .\n`);
  });
});
