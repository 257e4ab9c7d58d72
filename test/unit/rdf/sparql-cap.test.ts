import { Store } from 'oxigraph';
import { cappedSelect } from '../../../src/rdf/sparql.thread';

const store = new Store();
store.load(Array.from({ length: 30 }, (_, i) => `<urn:s${i}> <urn:p> "${i}" .`).join('\n'), { format: 'application/n-triples' });
const json = (sparql: string) =>
  JSON.parse(store.query(sparql, { results_format: 'application/sparql-results+json' }) as string) as {
    head: { vars: string[] };
    results: { bindings: unknown[] };
  };

describe('SELECT rows capped while the query runs', () => {
  it('answers the same variables and rows as the query sent, when under the cap', () => {
    const sparql = 'PREFIX ex: <urn:>\nSELECT ?s ?o WHERE { ?s ex:p ?o }';
    const capped = cappedSelect(sparql, 100)!;
    expect(json(capped)).toEqual(json(sparql));
  });

  it('stops one row past the cap, however many rows the join would make', () => {
    const join = 'SELECT * WHERE { ?a <urn:p> ?x . ?b <urn:p> ?y . ?c <urn:p> ?z }'; // 27,000 rows
    expect(json(cappedSelect(join, 10)!).results.bindings).toHaveLength(11);
  });

  it('leaves other query forms, and queries with their own modifiers, as they are', () => {
    expect(cappedSelect('SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 5', 10)).toBeNull();
    expect(cappedSelect('ASK { ?s ?p ?o }', 10)).toBeNull();
    expect(cappedSelect('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', 10)).toBeNull();
  });
});
