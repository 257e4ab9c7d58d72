/** One interface over the triplestores the service can write ontologies and model RDF to. */

export type RdfContentType = 'text/turtle' | 'application/rdf+xml' | 'application/n-triples';

export interface TriplestoreClient {
  readonly kind: 'embedded' | 'graph-store' | 'graphdb';
  /** Replaces the named graph's content with the given document (creates the graph if needed). */
  replaceGraph(graphUri: string, body: string, contentType: RdfContentType): Promise<void>;
  /** Removes the named graph; removing a graph that does not exist succeeds. */
  dropGraph(graphUri: string): Promise<void>;
  /** SELECT bindings as plain strings: IRIs, literal lexical values, blank node labels. */
  select(sparql: string): Promise<Array<Record<string, string>>>;
  tripleCount(graphUri: string): Promise<number>;
}

export class TriplestoreError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TriplestoreError';
  }
}

/** `<iri>` for SPARQL text; refuses characters that would let an IRI break out of its brackets. */
export function sparqlIri(iri: string): string {
  if (/[<>"{}|^`\\\s]/.test(iri)) throw new TriplestoreError(`not a valid IRI for SPARQL: ${JSON.stringify(iri)}`);
  return `<${iri}>`;
}
