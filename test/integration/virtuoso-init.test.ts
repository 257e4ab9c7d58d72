import { initTriplestore } from '../../src/ontology/init';
import { SUBCLASSES_OF_GDC_QUERY } from '../../src/ontology/verify';
import { GRAPHS, NS } from '../../src/ontology/vocabulary';
import { EmbeddedTriplestore } from '../../src/rdf/embedded-store';
import { GraphStoreClient } from '../../src/rdf/graph-store-client';
import { startVirtuoso, type VirtuosoServer } from '../support/virtuoso';

const TRANSITIVE_QUERY = `SELECT DISTINCT ?c WHERE { ?c <${NS.rdfs}subClassOf>+ <${NS.obo}BFO_0000031> }`;
const SDC4_CLASSES_QUERY = `SELECT DISTINCT ?c WHERE { GRAPH <${GRAPHS.core}> { ?c a <${NS.owl}Class> } FILTER(STRSTARTS(STR(?c), "${NS.sdc4}")) }`;

let virtuoso: VirtuosoServer;
let client: GraphStoreClient;

beforeAll(async () => {
  virtuoso = await startVirtuoso();
  client = new GraphStoreClient({
    graphStoreUrl: virtuoso.graphStoreUrl,
    queryUrl: virtuoso.queryUrl,
    user: virtuoso.user,
    password: virtuoso.password,
    timeoutMs: 20_000,
  });
}, 120_000);

afterAll(async () => {
  await virtuoso?.dispose();
});

const iris = (rows: Array<Record<string, string>>) => rows.map((row) => row.c).sort();

describe('triplestore init against Virtuoso', () => {
  it('loads the same graphs and triple counts as the embedded store, idempotently', async () => {
    const embedded = await initTriplestore(new EmbeddedTriplestore(), { loadBfoAlignment: true, reasoning: 'none' });
    const first = await initTriplestore(client, { loadBfoAlignment: true, reasoning: 'none' });
    expect(first).toEqual(embedded);
    expect(await initTriplestore(client, { loadBfoAlignment: true, reasoning: 'none' })).toEqual(first);
  });

  it('holds only the explicit axioms: 4 direct subclasses of BFO_0000031, all 53 sdc4 classes with subClassOf+', async () => {
    await initTriplestore(client, { loadBfoAlignment: true, reasoning: 'none' });
    expect(iris(await client.select(SUBCLASSES_OF_GDC_QUERY))).toEqual(
      ['CMC', 'InvlType', 'InvlUnits', 'MagnitudeStatus'].map((local) => `${NS.sdc4}${local}`),
    );
    const all = iris(await client.select(SDC4_CLASSES_QUERY));
    expect(all).toHaveLength(53);
    expect(iris(await client.select(TRANSITIVE_QUERY))).toEqual(all);
  });

  it('with owl2rl, writes the inferred graph so the direct query returns all 53 sdc4 classes', async () => {
    const loaded = await initTriplestore(client, { loadBfoAlignment: true, reasoning: 'owl2rl' });
    expect(loaded.map((graph) => graph.graphUri)).toEqual([GRAPHS.core, GRAPHS.bfo, GRAPHS.mapping, GRAPHS.inferred]);
    expect(iris(await client.select(SUBCLASSES_OF_GDC_QUERY))).toEqual(iris(await client.select(SDC4_CLASSES_QUERY)));
    await initTriplestore(client, { loadBfoAlignment: true, reasoning: 'none' });
    expect(await client.tripleCount(GRAPHS.inferred)).toBe(0);
  });

  it('removes the BFO and mapping graphs when the alignment is disabled again', async () => {
    await initTriplestore(client, { loadBfoAlignment: true, reasoning: 'none' });
    const loaded = await initTriplestore(client, { loadBfoAlignment: false, reasoning: 'none' });
    expect(loaded.map((graph) => graph.graphUri)).toEqual([GRAPHS.core]);
    expect(await client.tripleCount(GRAPHS.bfo)).toBe(0);
    expect(await client.tripleCount(GRAPHS.mapping)).toBe(0);
    expect(await client.select(TRANSITIVE_QUERY)).toEqual([]);
  });
});
