import { sql } from '../sql';

/** The durable copy of the embedded SPARQL store (`app_graphs`): one row per named graph, as N-Triples. */

/** Upsert of a graph; the revision moves so every process's embedded store reloads it. */
export const saveAppGraph = (graph: { graphUri: string; source: string; ntriples: string; tripleCount: number; organization?: string }) =>
  sql(
    `INSERT INTO app_graphs (graph_uri, source, ntriples, triple_count, organization) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (graph_uri) DO UPDATE SET source = EXCLUDED.source, ntriples = EXCLUDED.ntriples,
       triple_count = EXCLUDED.triple_count, organization = EXCLUDED.organization, revision = nextval('app_graph_revision'),
       updated_at = clock_timestamp()`,
    [graph.graphUri, graph.source, graph.ntriples, graph.tripleCount, graph.organization ?? null],
  );

/** Graphs written after `revision`, oldest first; `settled` once no transaction can still commit a lower one. */
export const appGraphsChangedSince = (revision: number, settleSeconds: number) =>
  sql<{ graph_uri: string; revision: string; settled: boolean }>(
    `SELECT graph_uri, revision, updated_at < clock_timestamp() - make_interval(secs => $2) AS settled
       FROM app_graphs WHERE revision > $1 ORDER BY revision`,
    [revision, settleSeconds],
  );

export const appGraphs = (graphUris: string[]) =>
  sql<{ graph_uri: string; ntriples: string; revision: string }>('SELECT graph_uri, ntriples, revision FROM app_graphs WHERE graph_uri = ANY($1)', [
    graphUris,
  ]);

export const appGraphTripleCount = (graphUri: string) =>
  sql<{ triple_count: number }>('SELECT triple_count FROM app_graphs WHERE graph_uri = $1', [graphUri]);
