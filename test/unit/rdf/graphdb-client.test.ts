import { createServer, type Server } from 'node:http';
import { GraphDbClient } from '../../../src/rdf/graphdb-client';
import { TriplestoreError } from '../../../src/rdf/triplestore';

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  accept: string | undefined;
  authorization: string | undefined;
  body: string;
}

/** A stand-in for GraphDB's RDF4J REST API that records every request and answers like GraphDB does. */
async function recordingServer(options: { requireBasic?: string } = {}): Promise<{ server: Server; baseUrl: string; requests: Recorded[] }> {
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url!, 'http://localhost');
      requests.push({
        method: request.method!,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        contentType: request.headers['content-type'],
        accept: request.headers.accept,
        authorization: request.headers.authorization,
        body,
      });
      if (options.requireBasic && request.headers.authorization !== `Basic ${Buffer.from(options.requireBasic).toString('base64')}`) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="GraphDB"' }).end('Unauthorized');
      } else if (url.pathname.endsWith('/size')) {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('7');
      } else if (url.pathname === '/repositories/broken/statements') {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Repository is shut down');
      } else if (request.method === 'GET' || request.method === 'POST') {
        response.writeHead(200, { 'content-type': 'application/sparql-results+json' }).end(
          JSON.stringify({
            head: { vars: ['c', 'n'] },
            results: {
              bindings: [
                { c: { type: 'uri', value: 'urn:a' }, n: { type: 'literal', value: '3', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } },
              ],
            },
          }),
        );
      } else {
        response.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests };
}

describe('GraphDbClient (RDF4J REST API)', () => {
  let server: Server;
  let baseUrl: string;
  let requests: Recorded[];

  beforeEach(async () => {
    ({ server, baseUrl, requests } = await recordingServer());
  });

  afterEach(() => {
    server.close();
  });

  it('replaces a graph with PUT …/statements?context=<iri> carrying the body and its content type', async () => {
    const client = new GraphDbClient({ baseUrl, repository: 'sdc4' });
    await client.replaceGraph('https://semanticdatacharter.com/ns/sdc4/', '<urn:s> <urn:p> <urn:o> .\n', 'application/n-triples');
    expect(requests).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/repositories/sdc4/statements',
        query: { context: '<https://semanticdatacharter.com/ns/sdc4/>' },
        contentType: 'application/n-triples',
        body: '<urn:s> <urn:p> <urn:o> .\n',
      }),
    ]);
  });

  it('drops a graph with DELETE …/statements?context=<iri>', async () => {
    await new GraphDbClient({ baseUrl: `${baseUrl}/`, repository: 'sdc4' }).dropGraph('urn:graph:one');
    expect(requests).toEqual([
      expect.objectContaining({ method: 'DELETE', path: '/repositories/sdc4/statements', query: { context: '<urn:graph:one>' }, body: '' }),
    ]);
  });

  it('selects with GET {repo}?query=… asking for SPARQL JSON, and with a form POST when the query is long', async () => {
    const client = new GraphDbClient({ baseUrl, repository: 'sdc4' });
    expect(await client.select('SELECT ?c ?n WHERE { ?c ?p ?n }')).toEqual([{ c: 'urn:a', n: '3' }]);
    const long = `SELECT ?c ?n WHERE { ?c ?p ?n }${' '.repeat(2000)}`;
    await client.select(long);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: '/repositories/sdc4',
      query: { query: 'SELECT ?c ?n WHERE { ?c ?p ?n }' },
      accept: 'application/sparql-results+json',
    });
    expect(requests[1]).toMatchObject({
      method: 'POST',
      path: '/repositories/sdc4',
      contentType: 'application/x-www-form-urlencoded',
      accept: 'application/sparql-results+json',
    });
    expect(new URLSearchParams(requests[1].body).get('query')).toBe(long);
  });

  it('counts a graph with GET …/size?context=<iri>', async () => {
    expect(await new GraphDbClient({ baseUrl, repository: 'sdc4' }).tripleCount('urn:graph:one')).toBe(7);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/repositories/sdc4/size', query: { context: '<urn:graph:one>' } });
  });

  it('raises a TriplestoreError with the status and the server’s message', async () => {
    const failure = new GraphDbClient({ baseUrl, repository: 'broken' }).replaceGraph('urn:g', '', 'text/turtle');
    await expect(failure).rejects.toBeInstanceOf(TriplestoreError);
    await expect(failure).rejects.toMatchObject({ status: 500, message: 'replacing graph <urn:g> failed: HTTP 500: Repository is shut down' });
  });
});

describe('GraphDbClient with Basic authentication', () => {
  it('answers the Basic challenge and then sends credentials up front', async () => {
    const { server, baseUrl, requests } = await recordingServer({ requireBasic: 'admin:root' });
    try {
      const client = new GraphDbClient({ baseUrl, repository: 'sdc4', user: 'admin', password: 'root' });
      await client.dropGraph('urn:g');
      await client.tripleCount('urn:g');
      expect(requests.map((request) => [request.method, request.authorization])).toEqual([
        ['DELETE', undefined],
        ['DELETE', `Basic ${Buffer.from('admin:root').toString('base64')}`],
        ['GET', `Basic ${Buffer.from('admin:root').toString('base64')}`],
      ]);
    } finally {
      server.close();
    }
  });
});
