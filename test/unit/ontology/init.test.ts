import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { INFERRED_FILE, initTriplestore } from '../../../src/ontology/init';
import { ontologiesDir, parseRdf, readOntologyFile } from '../../../src/ontology/ontology-files';
import { ontologyRdfXml } from '../../../src/ontology/ontology-document';
import { SUBCLASSES_OF_GDC_QUERY, bfoTypedSdc4Terms, sdc4Classes } from '../../../src/ontology/verify';
import { GRAPHS, NS } from '../../../src/ontology/vocabulary';
import { EmbeddedTriplestore } from '../../../src/rdf/embedded-store';

const TRANSITIVE_QUERY = `SELECT DISTINCT ?c WHERE { ?c <${NS.rdfs}subClassOf>+ <${NS.obo}BFO_0000031> }`;

async function subclassesOfGdc(store: EmbeddedTriplestore, query = SUBCLASSES_OF_GDC_QUERY): Promise<string[]> {
  return (await store.select(query)).map((row) => row.c).sort();
}

/** Every graph of the store with its triples (blank node labels differ between loads, so they are masked). */
function snapshot(store: EmbeddedTriplestore): Record<string, string[]> {
  return Object.fromEntries(
    store.graphNames().map((graph) => [
      graph,
      store
        .dumpGraphNQuads(graph)
        .replace(/_:[A-Za-z0-9]+/g, '_:b')
        .split('\n')
        .filter(Boolean)
        .sort(),
    ]),
  );
}

describe('triplestore init on the embedded store', () => {
  it('loads core, then BFO, then the mapping, each into its own graph, and again identically on a re-run', async () => {
    const store = new EmbeddedTriplestore();
    const first = await initTriplestore(store, { loadBfoAlignment: true, reasoning: 'none' });
    expect(first).toEqual([
      { graphUri: GRAPHS.core, file: 'sdc4.ttl', triples: expect.any(Number) },
      { graphUri: GRAPHS.bfo, file: 'bfo-2020.owl', triples: expect.any(Number) },
      { graphUri: GRAPHS.mapping, file: 'sdc4-bfo.ttl', triples: 11 },
    ]);
    expect(first[0].triples).toBe(parseRdf(await readOntologyFile('sdc4.ttl'), 'text/turtle').length);
    expect(first[1].triples).toBe(parseRdf(await readOntologyFile('bfo-2020.owl'), 'application/rdf+xml').length);
    const before = snapshot(store);

    expect(await initTriplestore(store, { loadBfoAlignment: true, reasoning: 'none' })).toEqual(first);
    expect(snapshot(store)).toEqual(before);
  });

  it('with owl2rl reasoning, returns all 53 sdc4 classes as subclasses of BFO_0000031', async () => {
    const store = new EmbeddedTriplestore();
    const loaded = await initTriplestore(store, { loadBfoAlignment: true, reasoning: 'owl2rl' });
    expect(loaded.map((graph) => graph.file)).toEqual(['sdc4.ttl', 'bfo-2020.owl', 'sdc4-bfo.ttl', INFERRED_FILE]);
    const classes = await sdc4Classes(store);
    expect(classes).toHaveLength(53);
    expect(await subclassesOfGdc(store)).toEqual(classes);
    expect(await bfoTypedSdc4Terms(store)).toContain(`${NS.sdc4}approximate`);
    expect(await initTriplestore(store, { loadBfoAlignment: true, reasoning: 'owl2rl' })).toEqual(loaded);
  });

  it('without reasoning holds only the explicit axioms: 4 direct subclasses, 53 through subClassOf+', async () => {
    const store = new EmbeddedTriplestore();
    await initTriplestore(store, { loadBfoAlignment: true, reasoning: 'none' });
    expect(await subclassesOfGdc(store)).toEqual(['CMC', 'InvlType', 'InvlUnits', 'MagnitudeStatus'].map((local) => `${NS.sdc4}${local}`));
    expect(await subclassesOfGdc(store, TRANSITIVE_QUERY)).toEqual(await sdc4Classes(store));
  });

  it.each(['none', 'owl2rl'] as const)('with the alignment disabled (reasoning %s), no sdc4 class is under BFO_0000031', async (reasoning) => {
    const store = new EmbeddedTriplestore();
    await initTriplestore(store, { loadBfoAlignment: false, reasoning });
    expect(await subclassesOfGdc(store)).toEqual([]);
    expect(await subclassesOfGdc(store, TRANSITIVE_QUERY)).toEqual([]);
    expect(await bfoTypedSdc4Terms(store)).toEqual([]);
  });
});

describe('disabling the alignment', () => {
  it('loads exactly the core ontology, as before the alignment existed', async () => {
    const store = new EmbeddedTriplestore();
    const loaded = await initTriplestore(store, { loadBfoAlignment: false, reasoning: 'none' });
    const core = parseRdf(await readOntologyFile('sdc4.ttl'), 'text/turtle');
    expect(loaded).toEqual([{ graphUri: GRAPHS.core, file: 'sdc4.ttl', triples: core.length }]);
    expect(store.graphNames()).toEqual([GRAPHS.core]);

    const preAlignment = new EmbeddedTriplestore();
    await preAlignment.replaceGraph(GRAPHS.core, await readOntologyFile('sdc4.ttl'), 'text/turtle');
    expect(snapshot(store)).toEqual(snapshot(preAlignment));
  });

  it.each(['none', 'owl2rl'] as const)('after enabling, returns the store to the same graphs and triple counts (reasoning %s)', async (reasoning) => {
    const neverEnabled = new EmbeddedTriplestore();
    const expected = await initTriplestore(neverEnabled, { loadBfoAlignment: false, reasoning });

    const store = new EmbeddedTriplestore();
    await initTriplestore(store, { loadBfoAlignment: true, reasoning });
    expect(store.graphNames()).toContain(GRAPHS.bfo);
    expect(await initTriplestore(store, { loadBfoAlignment: false, reasoning })).toEqual(expected);
    expect(store.graphNames()).toEqual(neverEnabled.graphNames());
    expect(snapshot(store)).toEqual(snapshot(neverEnabled));
  });
});

describe('the core ontology files', () => {
  it('are byte for byte the same before and after enabling the alignment', async () => {
    const digest = async () => {
      const hashes: Record<string, string> = {};
      for (const name of ['sdc4.owl', 'sdc4.ttl'])
        hashes[name] = createHash('sha256')
          .update(await readFile(path.join(ontologiesDir(), name)))
          .digest('hex');
      return hashes;
    };
    const before = await digest();
    await initTriplestore(new EmbeddedTriplestore(), { loadBfoAlignment: true, reasoning: 'owl2rl' });
    await ontologyRdfXml(true);
    expect(await digest()).toEqual(before);
  });
});
