import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { form, SP_CT_ID, startAppUnderTest, STATE_POPULATION, type AppUnderTest } from './app-helpers';

interface Recorded {
  method: string;
  path: string;
  context: string | null;
  contentType: string | undefined;
  authorization: string | undefined;
  body: string;
}

const fixture = (name: string) => readFileSync(path.join(STATE_POPULATION, name));

/** Answers like a GraphDB with security on: a challenge first, then records every authenticated request. */
let recorder: http.Server;
let requests: Recorded[] = [];
let answer = 204;
let app: AppUnderTest;

beforeAll(async () => {
  recorder = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (!req.headers.authorization) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="GraphDB"' }).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://recorder');
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        context: url.searchParams.get('context'),
        contentType: req.headers['content-type'],
        authorization: req.headers.authorization,
        body,
      });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const { port } = recorder.address() as AddressInfo;
  app = await startAppUnderTest({
    triplestore: {
      url: `http://127.0.0.1:${port}`,
      queryUrl: null,
      protocol: 'graphdb',
      repository: 'sdc-app',
      user: 'graph',
      password: 'db-secret',
    },
  });
  await app.call('POST', '/api/v1/upload/schema/', {
    body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: fixture(`dm-${SP_CT_ID}.xsd`) }]),
  });
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => recorder.close(resolve));
});

beforeEach(() => {
  requests = [];
  answer = 204;
});

const basic = `Basic ${Buffer.from('graph:db-secret').toString('base64')}`;

describe('GraphDB protocol (RDF4J statements with a context)', () => {
  it('an RDF upload replaces the schema graph through PUT /repositories/{repo}/statements?context=<uri>', async () => {
    const res = await app.call('POST', '/api/v1/upload/rdf/', {
      body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: fixture(`dm-${SP_CT_ID}.ttl`) }]),
    });
    expect(res.body.data.triplestore_status).toBe('synced');
    expect(requests).toEqual([
      {
        method: 'PUT',
        path: '/repositories/sdc-app/statements',
        context: `<urn:sdc4:dm-${SP_CT_ID}:schema>`,
        contentType: 'text/turtle',
        authorization: basic,
        body: expect.stringContaining('StatePopulation'),
      },
    ]);
  });

  it('a validated instance is synced by the job into its own context', async () => {
    const res = await app.call('POST', '/api/v1/validate/xml/', {
      body: JSON.stringify({ xml_content: fixture(`dm-${SP_CT_ID}.xml`).toString() }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.body.data.rdf_sync_status).toBe('pending');
    const id = res.body.data.instance_id as string;
    const deadline = Date.now() + 15_000;
    let status = 'pending';
    while (status !== 'synced' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await app.call('GET', `/api/v1/instances/${id}/`)).body.data.rdf_sync_status;
    }
    expect(status).toBe('synced');
    expect(requests).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/repositories/sdc-app/statements',
        context: `<urn:sdc4:instance:${id}>`,
        authorization: basic,
      }),
    ]);
  });

  it('a refusing server makes the RDF upload failed and keeps the file', async () => {
    answer = 500;
    const res = await app.call('POST', '/api/v1/upload/rdf/', {
      body: form([{ field: 'file', name: `dm-${SP_CT_ID}_shacl.ttl`, content: fixture(`dm-${SP_CT_ID}_shacl.ttl`) }]),
    });
    expect(res.status).toBe(201);
    expect(res.body.data.triplestore_status).toBe('failed');
    expect(readFileSync(path.join(app.storageDir, 'dmlib', `dm-${SP_CT_ID}_shacl.ttl`)).equals(fixture(`dm-${SP_CT_ID}_shacl.ttl`))).toBe(true);
  });
});
