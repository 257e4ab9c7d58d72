import { parentPort } from 'node:worker_threads';
import { namedNode, parse, Store } from 'oxigraph';
import type { SparqlRequest, SparqlReply } from './sparql-thread';

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

function handle(request: SparqlRequest): SparqlReply {
  if (request.type === 'load') {
    for (const { graphUri, ntriples } of request.graphs) {
      const graph = namedNode(graphUri);
      for (const quad of store.match(null, null, null, graph)) store.delete(quad);
      store.load(ntriples, { format: 'application/n-triples', to_graph_name: graph });
    }
    return { id: request.id, ok: true, body: '' };
  }
  const body = store.query(request.sparql, { use_default_graph_as_union: true, results_format: request.format }) as string;
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
