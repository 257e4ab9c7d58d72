import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { AuthenticatingFetcher, digestAuthorization, parseChallenges } from '../../../src/rdf/http-auth';
import { TriplestoreError } from '../../../src/rdf/triplestore';

describe('parseChallenges', () => {
  it('reads Virtuoso’s Digest challenge', () => {
    const header =
      'Digest realm="SPARQL", domain="/sparql-graph-crud-auth", nonce="a630614bfe1bbc8afa406d3442ee6e3c", opaque="5ebe2294ecd0e0f08eab7690d2a6ee69", stale="false", qop="auth", algorithm="MD5"';
    expect(parseChallenges(header)).toEqual([
      {
        scheme: 'digest',
        params: {
          realm: 'SPARQL',
          domain: '/sparql-graph-crud-auth',
          nonce: 'a630614bfe1bbc8afa406d3442ee6e3c',
          opaque: '5ebe2294ecd0e0f08eab7690d2a6ee69',
          stale: 'false',
          qop: 'auth',
          algorithm: 'MD5',
        },
      },
    ]);
  });

  it('separates several challenges in one header, with quoted commas and escapes', () => {
    expect(parseChallenges('Basic realm="a, b", Digest realm="x\\"y", nonce=abc, qop="auth,auth-int"')).toEqual([
      { scheme: 'basic', params: { realm: 'a, b' } },
      { scheme: 'digest', params: { realm: 'x"y', nonce: 'abc', qop: 'auth,auth-int' } },
    ]);
  });
});

describe('digestAuthorization (RFC 7616 §3.9.1 example)', () => {
  const challenge = (algorithm: string) => ({
    scheme: 'digest',
    params: {
      realm: 'http-auth@example.org',
      qop: 'auth, auth-int',
      algorithm,
      nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
      opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
    },
  });
  const request = {
    method: 'GET',
    uri: '/dir/index.html',
    user: 'Mufasa',
    password: 'Circle of Life',
    nc: 1,
    cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  };

  it('computes the MD5 response of the RFC', () => {
    expect(digestAuthorization(challenge('MD5'), request)).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
  });

  it('computes the SHA-256 response of the RFC', () => {
    const header = digestAuthorization(challenge('SHA-256'), request);
    expect(header).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
    expect(header).toContain('qop=auth, nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"');
    expect(header).toContain('opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"');
  });
});

/** A server that demands Digest (MD5, qop=auth) with one nonce, checked independently of the client's code. */
function digestServer(nonce: string): Promise<{ server: Server; url: string; log: Array<{ authorized: boolean; nc?: string }> }> {
  const log: Array<{ authorized: boolean; nc?: string }> = [];
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const server = createServer((request: IncomingMessage, response) => {
    const header = request.headers.authorization ?? '';
    const field = (name: string) => new RegExp(`${name}="?([^",]+)"?`).exec(header)?.[1];
    const expected = md5(`${md5('ann:R:pw')}:${nonce}:${field('nc')}:${field('cnonce')}:auth:${md5(`${request.method}:${request.url}`)}`);
    const authorized = header.startsWith('Digest ') && field('response') === expected && field('uri') === request.url;
    log.push({ authorized, nc: field('nc') });
    if (authorized) return response.end('ok');
    response.writeHead(401, { 'www-authenticate': `Digest realm="R", nonce="${nonce}", qop="auth", algorithm="MD5"` }).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, log })),
  );
}

describe('AuthenticatingFetcher', () => {
  it('answers a Digest challenge once, then reuses the nonce with increasing nc', async () => {
    const { server, url, log } = await digestServer('n1');
    try {
      const fetcher = new AuthenticatingFetcher({ user: 'ann', password: 'pw', timeoutMs: 5000 });
      for (const path of ['/a?graph=urn%3Ax', '/b', '/c']) {
        const response = await fetcher.fetch({ method: 'GET', url: new URL(path, url) });
        expect(await response.text()).toBe('ok');
      }
      expect(log).toEqual([
        { authorized: false, nc: undefined },
        { authorized: true, nc: '00000001' },
        { authorized: true, nc: '00000002' },
        { authorized: true, nc: '00000003' },
      ]);
    } finally {
      server.close();
    }
  });

  it('gives back the 401 when the password is wrong, after one retry', async () => {
    const { server, url, log } = await digestServer('n2');
    try {
      const fetcher = new AuthenticatingFetcher({ user: 'ann', password: 'bad', timeoutMs: 5000 });
      const response = await fetcher.fetch({ method: 'PUT', url: new URL('/g', url), body: 'x' });
      expect(response.status).toBe(401);
      expect(log.map((entry) => entry.authorized)).toEqual([false, false]);
    } finally {
      server.close();
    }
  });

  it('turns a server that never answers into a TriplestoreError naming the timeout', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const fetcher = new AuthenticatingFetcher({ user: null, password: null, timeoutMs: 200 });
      const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/sparql`);
      const failure = fetcher.fetch({ method: 'GET', url });
      await expect(failure).rejects.toBeInstanceOf(TriplestoreError);
      await expect(failure).rejects.toThrow(/unreachable: GET http:\/\/127\.0\.0\.1:\d+\/sparql: no answer within 200 ms/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
