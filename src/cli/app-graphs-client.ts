import { defaultGraph, Store } from 'oxigraph';
import type { DataSource } from 'typeorm';
import { AppGraphStore, saveGraph } from '../rdf/app-graph-store';
import { appGraphTripleCount } from '../db/queries/app-graphs.sql';
import { queryOne } from '../db/sql';
import { readSelectResults, SPARQL_RESULTS_JSON } from '../rdf/sparql-results';
import { TriplestoreError, type RdfContentType, type TriplestoreClient } from '../rdf/triplestore';

/** The embedded store as a CLI process can reach it: its durable copy in Postgres (`app_graphs`), which every
 * service process loads into its in-memory store at start and refreshes from before each query. */
export class AppGraphsClient implements TriplestoreClient {
  readonly kind = 'embedded' as const;

  constructor(private readonly db: DataSource) {}

  async replaceGraph(graphUri: string, body: string, contentType: RdfContentType): Promise<void> {
    const store = new Store();
    try {
      store.load(body, { format: contentType, base_iri: graphUri });
    } catch (error) {
      throw new TriplestoreError(`cannot parse ${contentType} for graph <${graphUri}>: ${(error as Error).message}`, undefined, { cause: error });
    }
    const ntriples = store.dump({ format: 'application/n-triples', from_graph_name: defaultGraph() });
    await saveGraph(this.db, { graphUri, source: 'schema', ntriples, tripleCount: store.size });
  }

  /** Kept as an empty row rather than deleted: running processes only pick up rows that changed. */
  async dropGraph(graphUri: string): Promise<void> {
    if ((await this.tripleCount(graphUri)) > 0) await saveGraph(this.db, { graphUri, source: 'schema', ntriples: '', tripleCount: 0 });
  }

  /** Over the union of every durable graph, exactly as the service's embedded store answers it. */
  async select(sparql: string): Promise<Array<Record<string, string>>> {
    const json = await new AppGraphStore(this.db).query(sparql, SPARQL_RESULTS_JSON);
    return readSelectResults(new Response(json));
  }

  async tripleCount(graphUri: string): Promise<number> {
    const row = await queryOne(this.db, appGraphTripleCount(graphUri));
    return row?.triple_count ?? 0;
  }
}
