import { createServer, type Server } from 'node:http';
import { GraphDbClient } from '../../../src/rdf/graphdb-client';
import { GraphStoreClient } from '../../../src/rdf/graph-store-client';
import { TriplestoreError } from '../../../src/rdf/triplestore';
import { expectWithinBaseline, msOf } from '../../support/baseline';

/** A local server that either never answers, or sends its headers and then never finishes the body. */
async function stallingServer(mode: 'silent' | 'headers-only'): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    if (mode === 'headers-only') {
      response.writeHead(200, { 'content-type': 'application/sparql-results+json' });
      response.write('{"head":{"vars":["count"]},"results":{"bindings":[');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

function stop(server: Server): void {
  server.closeAllConnections();
  server.close();
}

describe('external triplestore calls are bounded by the SPARQL timeout', () => {
  it.each(['silent', 'headers-only'] as const)('a SPARQL query to a store that stalls (%s) fails within queryTimeoutMs', async (mode) => {
    const { server, url } = await stallingServer(mode);
    try {
      const client = new GraphStoreClient({
        graphStoreUrl: `${url}/sparql-graph-crud`,
        queryUrl: `${url}/sparql`,
        timeoutMs: 30_000,
        queryTimeoutMs: 250,
      });
      // The baseline: how late a 250 ms timer fires on this machine right now.
      const timer = await msOf(() => new Promise((resolve) => setTimeout(resolve, 250)));
      const failure = client.select('SELECT * WHERE { ?s ?p ?o }');
      const elapsed = await msOf(() => failure.catch(() => undefined));
      await expect(failure).rejects.toBeInstanceOf(TriplestoreError);
      await expect(failure).rejects.toThrow(/unreachable: GET http:\/\/127\.0\.0\.1:\d+\/sparql: no answer within 250 ms/);
      expectWithinBaseline(elapsed, timer, 250, 20);
    } finally {
      stop(server);
    }
  });

  it('GraphDB queries get the same budget; graph writes keep the general timeout', async () => {
    const { server, url } = await stallingServer('headers-only');
    try {
      const client = new GraphDbClient({ baseUrl: url, repository: 'r', timeoutMs: 400, queryTimeoutMs: 150 });
      await expect(client.select('SELECT * WHERE { ?s ?p ?o }')).rejects.toThrow(/no answer within 150 ms/);
      await expect(client.replaceGraph('urn:g', '<urn:a> <urn:b> <urn:c> .', 'text/turtle')).rejects.toThrow(/no answer within 400 ms/);
    } finally {
      stop(server);
    }
  });
});
