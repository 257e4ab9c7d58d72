import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { AppGraphStore } from '../../src/rdf/app-graph-store';
import { AppGraphsClient } from '../../src/cli/app-graphs-client';
import { initTriplestore, type InitOptions } from '../../src/ontology/init';
import { CHECK_NAMES, SUBCLASSES_OF_GDC_QUERY } from '../../src/ontology/verify';
import { GRAPHS } from '../../src/ontology/vocabulary';
import { EmbeddedTriplestore } from '../../src/rdf/embedded-store';
import { GraphStoreClient } from '../../src/rdf/graph-store-client';
import { SPARQL_RESULTS_JSON } from '../../src/rdf/sparql-results';
import { startTestApp, type TestApp } from '../support/app';
import { ROOT, runCli } from '../support/process';
import { startVirtuoso, type VirtuosoServer } from '../support/virtuoso';

/** What `triplestore init --json` must report: the graphs and counts the in-process store gets from the same files. */
async function expectedGraphs(options: InitOptions) {
  const loaded = await initTriplestore(new EmbeddedTriplestore(), options);
  return loaded.map((graph) => ({ graph_uri: graph.graphUri, file: graph.file, triples: graph.triples }));
}

const alignment = (on: boolean, reasoning: InitOptions['reasoning'] = 'none') => ({
  LOAD_BFO_ALIGNMENT: on ? 'true' : 'false',
  REASONING: reasoning,
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('triplestore init against an external store (real Virtuoso, Graph Store Protocol)', () => {
  let virtuoso: VirtuosoServer;
  let store: GraphStoreClient;
  let env: Record<string, string>;
  beforeAll(async () => {
    virtuoso = await startVirtuoso();
    store = new GraphStoreClient({
      graphStoreUrl: virtuoso.graphStoreUrl,
      queryUrl: virtuoso.queryUrl,
      user: virtuoso.user,
      password: virtuoso.password,
    });
    env = {
      DATABASE_URL: app.databaseUrl,
      TRIPLESTORE_URL: virtuoso.graphStoreUrl,
      TRIPLESTORE_QUERY_URL: virtuoso.queryUrl,
      TRIPLESTORE_PROTOCOL: 'graph-store',
      TRIPLESTORE_USER: virtuoso.user,
      TRIPLESTORE_PASSWORD: virtuoso.password,
    };
  }, 120_000);
  afterAll(() => virtuoso?.dispose());

  it('without LOAD_BFO_ALIGNMENT loads only the core ontology, and again identically', async () => {
    const first = await runCli(['triplestore', 'init'], { ...env, ...alignment(false) });
    expect(first.code).toBe(0);
    expect(first.json).toEqual({
      store: 'graph-store',
      load_bfo_alignment: false,
      reasoning: 'none',
      graphs: await expectedGraphs({ loadBfoAlignment: false, reasoning: 'none' }),
    });
    expect(await store.tripleCount(GRAPHS.core)).toBe(first.json.graphs[0].triples);
    expect(await store.tripleCount(GRAPHS.bfo)).toBe(0);
    const again = await runCli(['triplestore', 'init'], { ...env, ...alignment(false) });
    expect(again).toEqual(first);
  });

  it('with LOAD_BFO_ALIGNMENT loads core, BFO, then the mapping, each in its own graph; re-running changes nothing', async () => {
    const expected = await expectedGraphs({ loadBfoAlignment: true, reasoning: 'none' });
    const first = await runCli(['triplestore', 'init'], { ...env, ...alignment(true) });
    expect(first.code).toBe(0);
    expect(first.json).toEqual({ store: 'graph-store', load_bfo_alignment: true, reasoning: 'none', graphs: expected });
    expect(first.json.graphs.map((graph: { graph_uri: string }) => graph.graph_uri)).toEqual([GRAPHS.core, GRAPHS.bfo, GRAPHS.mapping]);
    const counts = async () => Promise.all([GRAPHS.core, GRAPHS.bfo, GRAPHS.mapping].map((graph) => store.tripleCount(graph)));
    const afterFirst = await counts();
    expect(afterFirst).toEqual(expected.map((graph) => graph.triples));
    expect((await runCli(['triplestore', 'init'], { ...env, ...alignment(true) })).json).toEqual(first.json);
    expect(await counts()).toEqual(afterFirst);
    expect(await store.select(SUBCLASSES_OF_GDC_QUERY)).toHaveLength(4);
  });

  it('with REASONING=owl2rl adds the inferred graph, so all 53 sdc4 classes are subclasses of BFO_0000031', async () => {
    const res = await runCli(['triplestore', 'init'], { ...env, ...alignment(true, 'owl2rl') });
    expect(res.json.graphs.map((graph: { graph_uri: string }) => graph.graph_uri)).toEqual([
      GRAPHS.core,
      GRAPHS.bfo,
      GRAPHS.mapping,
      GRAPHS.inferred,
    ]);
    expect(await store.select(SUBCLASSES_OF_GDC_QUERY)).toHaveLength(53);
  });

  it('disabling the alignment again removes the BFO, mapping and inferred graphs', async () => {
    const res = await runCli(['triplestore', 'init'], { ...env, ...alignment(false) });
    expect(res.json.graphs.map((graph: { graph_uri: string }) => graph.graph_uri)).toEqual([GRAPHS.core]);
    for (const graph of [GRAPHS.bfo, GRAPHS.mapping, GRAPHS.inferred]) expect(await store.tripleCount(graph)).toBe(0);
    expect(await store.select(SUBCLASSES_OF_GDC_QUERY)).toEqual([]);
  });

  it('fails with exit code 1 and one JSON error when the store refuses the credentials', async () => {
    const res = await runCli(['triplestore', 'init'], { ...env, TRIPLESTORE_PASSWORD: 'wrong' });
    expect(res.code).toBe(1);
    expect(Object.keys(res.json)).toEqual(['error', 'error_type']);
  });
});

describe('triplestore init on the embedded store (durable copy in Postgres)', () => {
  const subclassesOfGdc = async (graphs: AppGraphStore) =>
    JSON.parse(await graphs.query(SUBCLASSES_OF_GDC_QUERY, SPARQL_RESULTS_JSON)).results.bindings.length;
  const env = () => ({ DATABASE_URL: app.databaseUrl, TRIPLESTORE_URL: '' });

  it('writes the graphs where the service loads them at start, idempotently', async () => {
    const first = await runCli(['triplestore', 'init'], { ...env(), ...alignment(true, 'owl2rl') });
    expect(first.code).toBe(0);
    expect(first.json).toEqual({
      store: 'embedded',
      load_bfo_alignment: true,
      reasoning: 'owl2rl',
      graphs: await expectedGraphs({ loadBfoAlignment: true, reasoning: 'owl2rl' }),
    });
    expect(await subclassesOfGdc(new AppGraphStore(app.services.db))).toBe(53);
    expect(await subclassesOfGdc(app.services.app.graphs)).toBe(53);

    const again = await runCli(['triplestore', 'init'], { ...env(), ...alignment(true, 'owl2rl') });
    expect(again.json).toEqual(first.json);
    const rows = await app.services.db.query('SELECT graph_uri, triple_count FROM app_graphs WHERE graph_uri = ANY($1) ORDER BY graph_uri', [
      Object.values(GRAPHS),
    ]);
    expect(rows).toHaveLength(4);
    const client = new AppGraphsClient(app.services.db);
    expect(await client.select(SUBCLASSES_OF_GDC_QUERY)).toHaveLength(53);
  });

  it('disabling the alignment empties its graphs in the running service too', async () => {
    await runCli(['triplestore', 'init'], { ...env(), ...alignment(true) });
    const graphs = app.services.app.graphs;
    expect(await subclassesOfGdc(graphs)).toBe(4);
    const res = await runCli(['triplestore', 'init'], { ...env(), ...alignment(false) });
    expect(res.json.graphs).toEqual(await expectedGraphs({ loadBfoAlignment: false, reasoning: 'none' }));
    expect(await subclassesOfGdc(graphs)).toBe(0);
    expect(await subclassesOfGdc(new AppGraphStore(app.services.db))).toBe(0);
    const client = new AppGraphsClient(app.services.db);
    for (const graph of [GRAPHS.bfo, GRAPHS.mapping, GRAPHS.inferred]) expect(await client.tripleCount(graph)).toBe(0);
  });

  it('prints a table of graph URIs and triple counts without --json', () => {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/cli.js'), 'triplestore', 'init'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env(), ...alignment(true) },
      encoding: 'utf8',
    });
    expect(res.status).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^embedded store: .*LOAD_BFO_ALIGNMENT=true, REASONING=none$/);
    expect(lines[1]).toMatch(/^Graph\s+\| File\s+\| Triples$/);
    expect(lines.slice(3).map((line) => line.split('|').map((cell) => cell.trim()))).toEqual([
      [GRAPHS.core, 'sdc4.ttl', expect.stringMatching(/^[1-9]\d*$/)],
      [GRAPHS.bfo, 'bfo-2020.owl', expect.stringMatching(/^[1-9]\d*$/)],
      [GRAPHS.mapping, 'sdc4-bfo.ttl', expect.stringMatching(/^[1-9]\d*$/)],
    ]);
  });
});

describe('ontology verify', () => {
  it('exits 0 with four passing checks', async () => {
    const res = await runCli(['ontology', 'verify'], {});
    expect(res.code).toBe(0);
    expect(res.json.ok).toBe(true);
    expect(res.json.checks.map((check: { name: string; passed: boolean }) => [check.name, check.passed])).toEqual(
      Object.values(CHECK_NAMES).map((name) => [name, true]),
    );
  });

  it('exits non-zero with ok false when a check fails (no reasoner)', async () => {
    const res = await runCli(['ontology', 'verify', '--konclude', '/nonexistent/Konclude'], {});
    expect(res.code).toBe(1);
    expect(res.json.ok).toBe(false);
    expect(res.json.checks.map((check: { passed: boolean }) => check.passed)).toEqual([false, true, true, false]);
  });
});
