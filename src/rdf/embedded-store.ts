import { Store, namedNode, parse, type Quad, type Term } from 'oxigraph';
import { sparqlIri, TriplestoreError, type RdfContentType, type TriplestoreClient } from './triplestore';

/** In-process triplestore (oxigraph, in memory). SELECT sees the union of all named graphs, as external stores do.
 * It cannot persist by itself: dump it to N-Quads for a durable copy and load that back at start-up. */
export class EmbeddedTriplestore implements TriplestoreClient {
  readonly kind = 'embedded' as const;
  private readonly store = new Store();

  async replaceGraph(graphUri: string, body: string, contentType: RdfContentType): Promise<void> {
    let quads: Quad[];
    try {
      quads = parse(body, { format: contentType, to_graph_name: namedNode(graphUri), base_iri: graphUri });
    } catch (error) {
      throw new TriplestoreError(`cannot parse ${contentType} for graph <${graphUri}>: ${(error as Error).message}`, undefined, { cause: error });
    }
    this.store.update(`DROP SILENT GRAPH ${sparqlIri(graphUri)}`);
    for (const quad of quads) this.store.add(quad);
  }

  async dropGraph(graphUri: string): Promise<void> {
    this.store.update(`DROP SILENT GRAPH ${sparqlIri(graphUri)}`);
  }

  async select(sparql: string): Promise<Array<Record<string, string>>> {
    let result: ReturnType<Store['query']>;
    try {
      result = this.store.query(sparql, { use_default_graph_as_union: true });
    } catch (error) {
      throw new TriplestoreError(`SPARQL query failed: ${(error as Error).message}`, undefined, { cause: error });
    }
    if (!Array.isArray(result)) throw new TriplestoreError('select() needs a SELECT query');
    return (result as Map<string, Term>[]).map((solution) => {
      const row: Record<string, string> = {};
      for (const [name, term] of solution) row[name] = term.value;
      return row;
    });
  }

  async tripleCount(graphUri: string): Promise<number> {
    return this.store.match(null, null, null, namedNode(graphUri)).length;
  }

  /** Adds the quads of an N-Quads document (e.g. the durable copy) to the store. */
  loadNQuads(nquads: string): void {
    this.store.load(nquads, { format: 'application/n-quads' });
  }

  /** The named graph as N-Quads (each line carries the graph name). */
  dumpGraphNQuads(graphUri: string): string {
    const graph = namedNode(graphUri);
    const only = new Store(this.store.match(null, null, null, graph));
    return only.dump({ format: 'application/n-quads' });
  }

  /** Names of the graphs holding at least one triple, sorted. */
  graphNames(): string[] {
    const names = new Set<string>();
    for (const quad of this.store.match()) if (quad.graph.termType === 'NamedNode') names.add(quad.graph.value);
    return [...names].sort();
  }
}
