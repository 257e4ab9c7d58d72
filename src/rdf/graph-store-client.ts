import { AuthenticatingFetcher, ensureOk, type HttpRequest } from './http-auth';
import { countQuery, MAX_GET_QUERY_LENGTH, readSelectResults, SPARQL_RESULTS_JSON } from './sparql-results';
import { sparqlIri, TriplestoreError, type RdfContentType, type TriplestoreClient } from './triplestore';

export interface GraphStoreOptions {
  /** The SPARQL 1.1 Graph Store Protocol endpoint, e.g. Virtuoso `…/sparql-graph-crud-auth`, Fuseki `…/ds/data`. */
  graphStoreUrl: string;
  /** The SPARQL query endpoint, e.g. Virtuoso `…/sparql`, Fuseki `…/ds/query`. Defaults to graphStoreUrl. */
  queryUrl?: string | null;
  user?: string | null;
  password?: string | null;
  timeoutMs?: number;
  /** SPARQL queries' budget (the service's SPARQL_TIMEOUT_MS); timeoutMs when unset. */
  queryTimeoutMs?: number;
}

/** A store speaking the SPARQL 1.1 Graph Store Protocol (Virtuoso, Fuseki, Oxigraph server), with Basic or
 * Digest authentication. */
export class GraphStoreClient implements TriplestoreClient {
  readonly kind = 'graph-store' as const;
  private readonly fetcher: AuthenticatingFetcher;
  private readonly queryTimeoutMs: number | undefined;
  private readonly graphStoreUrl: URL;
  private readonly queryUrl: URL;

  constructor(options: GraphStoreOptions) {
    this.graphStoreUrl = new URL(options.graphStoreUrl);
    this.queryUrl = new URL(options.queryUrl || options.graphStoreUrl);
    this.queryTimeoutMs = options.queryTimeoutMs;
    this.fetcher = new AuthenticatingFetcher({
      user: options.user ?? null,
      password: options.password ?? null,
      timeoutMs: options.timeoutMs ?? 30_000,
    });
  }

  async replaceGraph(graphUri: string, body: string, contentType: RdfContentType): Promise<void> {
    const response = await this.fetcher.fetch({ method: 'PUT', url: this.graphUrl(graphUri), headers: { 'content-type': contentType }, body });
    await ensureOk(response, `replacing graph <${graphUri}>`);
  }

  async dropGraph(graphUri: string): Promise<void> {
    const response = await this.fetcher.fetch({ method: 'DELETE', url: this.graphUrl(graphUri) });
    await ensureOk(response, `dropping graph <${graphUri}>`, [404]);
  }

  async select(sparql: string): Promise<Array<Record<string, string>>> {
    const response = await this.fetcher.fetch({ ...queryRequest(this.queryUrl, sparql), timeoutMs: this.queryTimeoutMs });
    if (!response.ok) await ensureOk(response, 'SPARQL query');
    return readSelectResults(response);
  }

  async tripleCount(graphUri: string): Promise<number> {
    const [row] = await this.select(countQuery(sparqlIri(graphUri)));
    const count = Number(row?.count);
    if (!Number.isInteger(count)) throw new TriplestoreError(`triple count of <${graphUri}> is not a number: ${JSON.stringify(row)}`);
    return count;
  }

  private graphUrl(graphUri: string): URL {
    const url = new URL(this.graphStoreUrl);
    url.searchParams.set('graph', graphUri);
    return url;
  }
}

/** A SELECT request: GET with `query=` when short, otherwise a form-encoded POST. */
export function queryRequest(endpoint: URL, sparql: string): HttpRequest {
  const headers = { accept: SPARQL_RESULTS_JSON };
  if (sparql.length <= MAX_GET_QUERY_LENGTH) {
    const url = new URL(endpoint);
    url.searchParams.set('query', sparql);
    return { method: 'GET', url, headers };
  }
  const body = new URLSearchParams({ query: sparql }).toString();
  return { method: 'POST', url: endpoint, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body };
}
