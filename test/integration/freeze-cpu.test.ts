import { saveGraph } from '../../src/rdf/app-graph-store';
import { form, SP_CT_ID, startAppUnderTest, type AppUnderTest } from './app-helpers';

let app: AppUnderTest;
let probeKey: string;
beforeAll(async () => {
  app = await startAppUnderTest({ sparqlTimeoutMs: 3_000 });
  probeKey = (await app.services.app.keys.create({ organization: 'Probe Org', contactEmail: 'probe@example.org' })).plaintext;
  const ntriples = Array.from({ length: 10_000 }, (_, i) => `<urn:n:${i % 100}> <urn:p:${i % 7}> <urn:n:${(i * 31) % 100}> .`).join('\n');
  await saveGraph(app.services.db, { graphUri: 'urn:freeze:graph', source: 'instance', ntriples, tripleCount: 10_000 });
});
afterAll(async () => {
  await app?.services.cpu.close();
  await app?.services.app.graphs.close();
  await app?.close();
});

/** Calls `url` every 10 ms until stopped; returns each call's latency and the statuses seen. */
function probe(url: string, headers: Record<string, string> = {}) {
  const latencies: number[] = [];
  const statuses = new Set<number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      statuses.add(res.status);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, count: sorted.length, statuses: [...statuses] };
    },
  };
}

const root = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><sdc4:dm-${SP_CT_ID} xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/">${body}</sdc4:dm-${SP_CT_ID}>`;

describe('no request can freeze the service', () => {
  it('answers /healthz and a cheap GET quickly while hostile requests end with clear errors', async () => {
    const health = probe(`${app.url}/healthz`);
    const cheap = probe(`${app.url}/api/v1/whoami/`, { 'x-api-key': probeKey });
    const validate = (xml: string) =>
      app.call('POST', '/api/v1/validate/xml/', { body: JSON.stringify({ xml_content: xml }), headers: { 'content-type': 'application/json' } });

    const attributes = Array.from({ length: 250_000 }, (_, i) => `a${i}="1"`).join(' ');
    const manyAttributes = await validate(root(`<x ${attributes}/>`));
    expect(manyAttributes.status).toBe(400);
    expect(manyAttributes.text).toContain('XML_MAX_ATTRIBUTES_PER_ELEMENT');

    const manyElements = await validate(root('<a/>'.repeat(2_000_000)));
    expect([400, 413]).toContain(manyElements.status);
    expect(manyElements.text).toMatch(/XML_MAX_ELEMENTS|limit is/);

    const join = 'SELECT * WHERE { ?a ?p ?b . ?b ?q ?c . ?c ?r ?d . ?d ?s ?e }';
    const sparql = await app.call('GET', `/api/v1/sparql?query=${encodeURIComponent(join)}`);
    expect(sparql.status).toBe(422);
    expect(sparql.text).toMatch(/SPARQL_TIMEOUT_MS|SPARQL_MAX_ROWS/);
    const after = await app.call('GET', `/api/v1/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`);
    expect(after.status).toBe(200);

    const turtle = Array.from({ length: 100_000 }, (_, i) => `<urn:s:${i}> <urn:p> "v${i}" .`).join('\n');
    const upload = await app.call('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: turtle }]) });
    expect([201, 413, 422]).toContain(upload.status);

    const healthStats = await health.stop();
    const cheapStats = await cheap.stop();
    console.log(
      `freeze: /healthz p99 ${healthStats.p99.toFixed(1)} ms over ${healthStats.count} calls; cheap GET p99 ${cheapStats.p99.toFixed(1)} ms over ${cheapStats.count} calls; upload/rdf ${upload.status}`,
    );
    expect(healthStats.statuses).toEqual([200]);
    expect(cheapStats.statuses).toEqual([200]);
    expect(healthStats.p99).toBeLessThan(100);
    expect(cheapStats.p99).toBeLessThan(250);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  }, 180_000);
});
