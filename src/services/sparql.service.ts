import { AppGeneralError, invalidQuery } from '../lib/app-api-errors';
import type { AppGraphStore } from '../rdf/app-graph-store';
import { SparqlBudgetError, SparqlStoreReset } from '../rdf/sparql-thread';
import { RetryLaterError } from '../lib/cpu-errors';

const RESULT_FORMATS = ['application/sparql-results+json', 'application/sparql-results+xml', 'text/csv', 'text/tab-separated-values'];
const GRAPH_FORMATS = ['text/turtle', 'application/n-triples', 'application/rdf+xml', 'application/n-quads'];

export interface SparqlAnswer {
  contentType: string;
  body: string;
}

/** Read-only SPARQL over the embedded store: SELECT/ASK answer in a results format, CONSTRUCT/DESCRIBE in an
 * RDF syntax, each picked from Accept. Updates and SERVICE calls are refused by the query parser itself. The
 * store evaluates in a thread of its own within SPARQL_TIMEOUT_MS and SPARQL_MAX_ROWS (422 naming the limit). */
export class SparqlService {
  constructor(private readonly graphs: AppGraphStore) {}

  /** `sparql` is a parsed query (parseSparqlQuery): present and within its length limit. */
  async query(sparql: string, accept: string | undefined): Promise<SparqlAnswer> {
    const graphForm = /^\s*(CONSTRUCT|DESCRIBE)\b/i.test(withoutPrologue(sparql));
    const contentType = negotiate(accept, graphForm ? GRAPH_FORMATS : RESULT_FORMATS);
    try {
      return { contentType, body: await this.graphs.query(sparql, contentType) };
    } catch (error) {
      if (error instanceof SparqlStoreReset) {
        throw new RetryLaterError(503, 'STORE_UNAVAILABLE', `The SPARQL store is being reloaded; retry shortly. ${error.message}`, 1);
      }
      if (error instanceof SparqlBudgetError) {
        throw new AppGeneralError(422, 'QUERY_BUDGET_EXCEEDED', error.message, { query: [`must stay within ${error.limit}`] });
      }
      throw invalidQuery(`The query was refused: ${String((error as Error).message ?? error)}`);
    }
  }
}

/** The query text after its PREFIX/BASE declarations and comments. */
function withoutPrologue(sparql: string): string {
  return sparql.replace(/^(?:\s+|#[^\n]*\n?|PREFIX\s+[^:\s]*:\s*<[^>]*>|BASE\s*<[^>]*>)*/i, '');
}

function negotiate(accept: string | undefined, offered: string[]): string {
  if (!accept) return offered[0];
  const wanted = accept
    .split(',')
    .map((part) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { type: type.trim(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { type } of wanted) {
    if (type === '*/*' || type === 'application/*') return offered[0];
    if (type === 'application/json' && offered === RESULT_FORMATS) return offered[0];
    if (offered.includes(type)) return type;
  }
  return offered[0];
}
