import { TriplestoreError } from './triplestore';

interface SparqlJson {
  head?: { vars?: string[] };
  results?: { bindings?: Array<Record<string, { type: string; value: string }>> };
}

export const SPARQL_RESULTS_JSON = 'application/sparql-results+json';

/** SPARQL 1.1 Query Results JSON → rows of plain strings (IRIs, literal lexical forms, blank node labels). */
export async function readSelectResults(response: Response): Promise<Array<Record<string, string>>> {
  const text = await response.text();
  let parsed: SparqlJson;
  try {
    parsed = JSON.parse(text) as SparqlJson;
  } catch (error) {
    throw new TriplestoreError(
      `the triplestore answered a SELECT with something other than SPARQL JSON results: ${text.slice(0, 200)}`,
      response.status,
      { cause: error },
    );
  }
  const bindings = parsed.results?.bindings;
  if (!Array.isArray(bindings)) throw new TriplestoreError('SPARQL JSON results without results.bindings', response.status);
  return bindings.map((binding) => Object.fromEntries(Object.entries(binding).map(([name, term]) => [name, term.value])));
}

/** Queries up to this length go as GET; longer ones as a form-encoded POST (never application/sparql-query,
 * which hangs Virtuoso). */
export const MAX_GET_QUERY_LENGTH = 1500;

export function countQuery(graphIri: string): string {
  return `SELECT (COUNT(*) AS ?count) WHERE { GRAPH ${graphIri} { ?s ?p ?o } }`;
}
