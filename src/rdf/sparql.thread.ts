import { parentPort, workerData } from 'node:worker_threads';
import { namedNode, parse, Store } from 'oxigraph';
import { lowerThreadPriority } from '../lib/thread-priority';
import type { SparqlRequest, SparqlReply } from './sparql-thread';

lowerThreadPriority((workerData as { nice?: number } | null)?.nice ?? 0);

/** The embedded SPARQL store's thread: it owns the oxigraph store, so a runaway query stalls only this thread
 * (the event loop terminates it past SPARQL_TIMEOUT_MS and loads a fresh one). */
const store = new Store();

function rowCount(body: string, format: string): number {
  if (format === 'application/sparql-results+json')
    return (JSON.parse(body) as { results?: { bindings?: unknown[] } }).results?.bindings?.length ?? 0;
  if (format === 'application/sparql-results+xml') return body.split('<result>').length - 1;
  if (format === 'text/csv' || format === 'text/tab-separated-values') return Math.max(0, body.split('\n').filter(Boolean).length - 1);
  return parse(body, { format }).length;
}

/** A SELECT query (after its PREFIX/BASE prologue) that ends with its WHERE clause gets `LIMIT maxRows+1`, so its
 * rows are capped while it runs: a join that would match millions of rows stops at the first one past the cap
 * instead of building the whole result in memory. Null for other query forms and for a query with its own
 * solution modifiers or VALUES (or anything the pattern does not recognise): those are counted after evaluation,
 * within the time budget. */
const SELECT_QUERY = /^(?:\s*(?:PREFIX\s+[A-Za-z0-9_.-]*:\s*<[^>]*>|BASE\s+<[^>]*>))*\s*SELECT\b[\s\S]*\}\s*$/i;

export function cappedSelect(sparql: string, maxRows: number): string | null {
  return SELECT_QUERY.test(sparql) ? `${sparql}\nLIMIT ${maxRows + 1}` : null;
}

function evaluate(request: Extract<SparqlRequest, { type: 'query' }>): string {
  const options = { use_default_graph_as_union: true, results_format: request.format };
  const capped = cappedSelect(request.sparql, request.maxRows);
  if (capped) {
    try {
      return store.query(capped, options) as string;
    } catch {
      // Not valid as a subquery (a FROM clause, say): evaluate it as sent.
    }
  }
  return store.query(request.sparql, options) as string;
}

function handle(request: SparqlRequest): SparqlReply {
  if (request.type === 'load') {
    for (const { graphUri, turtle } of request.graphs) {
      const graph = namedNode(graphUri);
      for (const quad of store.match(null, null, null, graph)) store.delete(quad);
      store.load(turtle, { format: 'text/turtle', to_graph_name: graph });
    }
    return { id: request.id, ok: true, body: '' };
  }
  const body = evaluate(request);
  const rows = rowCount(body, request.format);
  if (rows > request.maxRows) return { id: request.id, ok: false, tooManyRows: rows, message: '' };
  return { id: request.id, ok: true, body };
}

parentPort?.on('message', (request: SparqlRequest) => {
  let reply: SparqlReply;
  try {
    reply = handle(request);
  } catch (error) {
    reply = { id: request.id, ok: false, message: String((error as Error).message ?? error) };
  }
  parentPort?.postMessage(reply);
});
