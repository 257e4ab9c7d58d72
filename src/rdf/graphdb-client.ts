import { queryRequest } from './graph-store-client';
import { AuthenticatingFetcher, ensureOk } from './http-auth';
import { readSelectResults } from './sparql-results';
import { TriplestoreError, type RdfContentType, type TriplestoreClient } from './triplestore';

export interface GraphDbOptions {
  /** The server root, e.g. `http://graphdb:7200`. */
  baseUrl: string;
  repository: string;
  user?: string | null;
  password?: string | null;
  timeoutMs?: number;
  /** SPARQL queries' budget (the service's SPARQL_TIMEOUT_MS); timeoutMs when unset. */
  queryTimeoutMs?: number;
}

/** GraphDB or any RDF4J server, through the RDF4J REST API; a named graph is a statement context. */
export class GraphDbClient implements TriplestoreClient {
  readonly kind = 'graphdb' as const;
  private readonly fetcher: AuthenticatingFetcher;
  private readonly queryTimeoutMs: number | undefined;
  private readonly repositoryUrl: URL;

  constructor(options: GraphDbOptions) {
    const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
    this.repositoryUrl = new URL(`repositories/${encodeURIComponent(options.repository)}`, base);
    this.queryTimeoutMs = options.queryTimeoutMs;
    this.fetcher = new AuthenticatingFetcher({
      user: options.user ?? null,
      password: options.password ?? null,
      timeoutMs: options.timeoutMs ?? 30_000,
    });
  }

  async replaceGraph(graphUri: string, body: string, contentType: RdfContentType): Promise<void> {
    const response = await this.fetcher.fetch({
      method: 'PUT',
      url: this.contextUrl('statements', graphUri),
      headers: { 'content-type': contentType },
      body,
    });
    await ensureOk(response, `replacing graph <${graphUri}>`);
  }

  async dropGraph(graphUri: string): Promise<void> {
    const response = await this.fetcher.fetch({ method: 'DELETE', url: this.contextUrl('statements', graphUri) });
    await ensureOk(response, `dropping graph <${graphUri}>`);
  }

  async select(sparql: string): Promise<Array<Record<string, string>>> {
    const response = await this.fetcher.fetch({ ...queryRequest(this.repositoryUrl, sparql), timeoutMs: this.queryTimeoutMs });
    if (!response.ok) await ensureOk(response, 'SPARQL query');
    return readSelectResults(response);
  }

  async tripleCount(graphUri: string): Promise<number> {
    const response = await this.fetcher.fetch({ method: 'GET', url: this.contextUrl('size', graphUri), headers: { accept: 'text/plain' } });
    if (!response.ok) await ensureOk(response, `counting graph <${graphUri}>`);
    const text = (await response.text()).trim();
    const count = Number(text);
    if (!/^\d+$/.test(text)) throw new TriplestoreError(`size of <${graphUri}> is not a number: ${text.slice(0, 100)}`);
    return count;
  }

  /** `{repository}/{resource}?context=<iri>`: RDF4J names a context in N-Triples form, brackets included. */
  private contextUrl(resource: 'statements' | 'size', graphUri: string): URL {
    const url = new URL(`${this.repositoryUrl.pathname}/${resource}`, this.repositoryUrl);
    url.searchParams.set('context', `<${graphUri}>`);
    return url;
  }
}
