import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Quad } from 'n3';
import { buildOntologyFiles } from '../../../src/ontology/ontology-builder';
import { parseRdf, readOntologyFile } from '../../../src/ontology/ontology-files';
import { BFO_ONTOLOGY_IRI, MAPPING_ONTOLOGY_IRI, NS, SDC4_ONTOLOGY_IRI } from '../../../src/ontology/vocabulary';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures');
const RDF_TYPE = `${NS.rdf}type`;
const SUBCLASS = `${NS.rdfs}subClassOf`;
const GDC = `${NS.obo}BFO_0000031`;

const named = (quads: Quad[]) => quads.filter((q) => q.subject.termType === 'NamedNode');
const classes = (quads: Quad[], ns: string) =>
  named(quads)
    .filter((q) => q.predicate.value === RDF_TYPE && q.object.value === `${NS.owl}Class` && q.subject.value.startsWith(ns))
    .map((q) => q.subject.value)
    .sort();
const subclassEdges = (quads: Quad[]) =>
  named(quads)
    .filter((q) => q.predicate.value === SUBCLASS && q.object.termType === 'NamedNode')
    .map((q) => `${q.subject.value} ⊑ ${q.object.value}`)
    .sort();
const nonBlankTriples = (quads: Quad[]) =>
  quads
    .filter((q) => q.subject.termType !== 'BlankNode' && q.object.termType !== 'BlankNode')
    .map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.id}`)
    .sort();

function descendants(edges: string[], root: string): Set<string> {
  const found = new Set<string>();
  const pairs = edges.map((edge) => edge.split(' ⊑ '));
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of pairs) {
      if ((parent === root || found.has(parent)) && !found.has(child)) {
        found.add(child);
        grew = true;
      }
    }
  }
  return found;
}

/** Disjointness as comparable strings: owl:disjointWith pairs and owl:AllDisjointClasses member sets. */
function disjointness(quads: Quad[]): string[] {
  const axioms = quads
    .filter((q) => q.predicate.value === `${NS.owl}disjointWith`)
    .map((q) => `pair ${[q.subject.value, q.object.value].sort().join(' ')}`);
  const objectOf = (subject: Quad['subject'] | Quad['object'], predicate: string) =>
    quads.find((q) => q.subject.equals(subject) && q.predicate.value === predicate)?.object;
  for (const group of quads.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === `${NS.owl}AllDisjointClasses`)) {
    const members: string[] = [];
    for (let cell = objectOf(group.subject, `${NS.owl}members`); cell && cell.value !== `${NS.rdf}nil`; cell = objectOf(cell, `${NS.rdf}rest`)) {
      members.push(objectOf(cell, `${NS.rdf}first`)!.value);
    }
    axioms.push(`group ${members.sort().join(' ')}`);
  }
  return axioms.sort();
}

describe('SDC4 core ontology (ontologies/sdc4.*) against the published sdc4.ttl', () => {
  let ours: Quad[];
  let reference: Quad[];

  beforeAll(async () => {
    ours = parseRdf(await readOntologyFile('sdc4.ttl'), 'text/turtle');
    reference = parseRdf(await readFile(path.join(FIXTURES, 'sdc4/reference/sdc4.ttl'), 'utf8'), 'text/turtle');
  });

  it('declares the same 53 sdc4 classes', () => {
    expect(classes(ours, NS.sdc4)).toHaveLength(53);
    expect(classes(ours, NS.sdc4)).toEqual(classes(reference, NS.sdc4));
  });

  it('has the same rdfs:subClassOf edges, CMC having 49 transitive subclasses', () => {
    expect(subclassEdges(ours)).toEqual(subclassEdges(reference));
    expect(descendants(subclassEdges(ours), `${NS.sdc4}CMC`).size).toBe(49);
  });

  it('types the same 6 MagnitudeStatus individuals and declares the same properties', () => {
    const typed = (quads: Quad[], type: string) =>
      named(quads)
        .filter((q) => q.predicate.value === RDF_TYPE && q.object.value === type)
        .map((q) => q.subject.value)
        .sort();
    expect(typed(ours, `${NS.sdc4}MagnitudeStatus`)).toHaveLength(6);
    expect(typed(ours, `${NS.sdc4}MagnitudeStatus`)).toEqual(typed(reference, `${NS.sdc4}MagnitudeStatus`));
    for (const kind of ['ObjectProperty', 'DatatypeProperty']) expect(typed(ours, `${NS.owl}${kind}`)).toEqual(typed(reference, `${NS.owl}${kind}`));
  });

  it('is version 4.0.0 with no imports, and its RDF/XML holds the same triples as its Turtle', async () => {
    const header = ours.filter((q) => q.subject.value === SDC4_ONTOLOGY_IRI);
    expect(header.find((q) => q.predicate.value === `${NS.owl}versionInfo`)?.object.value).toBe('4.0.0');
    expect(ours.some((q) => q.predicate.value === `${NS.owl}imports`)).toBe(false);
    const fromXml = parseRdf(await readOntologyFile('sdc4.owl'), 'application/rdf+xml');
    expect(fromXml).toHaveLength(ours.length);
    expect(nonBlankTriples(fromXml)).toEqual(nonBlankTriples(ours));
  });
});

describe('BFO 2020 (ontologies/bfo-2020.owl) against the published bfo-core.owl', () => {
  let ours: Quad[];
  let reference: Quad[];

  beforeAll(async () => {
    ours = parseRdf(await readOntologyFile('bfo-2020.owl'), 'application/rdf+xml');
    reference = parseRdf(await readFile(path.join(FIXTURES, 'bfo/bfo-core.owl'), 'utf8'), 'application/rdf+xml');
  });

  it('declares the same 36 classes', () => {
    expect(classes(ours, NS.obo)).toHaveLength(36);
    expect(classes(ours, NS.obo)).toEqual(classes(reference, NS.obo));
  });

  it('has the same subclass edges between named classes', () => {
    expect(subclassEdges(ours)).toHaveLength(35);
    expect(subclassEdges(ours)).toEqual(subclassEdges(reference));
  });

  it('has the same disjointness axioms', () => {
    expect(disjointness(ours)).toHaveLength(10);
    expect(disjointness(ours)).toEqual(disjointness(reference));
  });

  it('keeps the class labels of the standard', () => {
    const classIris = new Set(classes(reference, NS.obo));
    const labels = (quads: Quad[]) =>
      named(quads)
        .filter((q) => q.predicate.value === `${NS.rdfs}label` && classIris.has(q.subject.value))
        .map((q) => `${q.subject.value} ${q.object.value}`)
        .sort();
    expect(labels(ours)).toEqual(labels(reference));
    expect(ours.find((q) => q.subject.value === BFO_ONTOLOGY_IRI && q.predicate.value === RDF_TYPE)?.object.value).toBe(`${NS.owl}Ontology`);
  });
});

describe('SDC4–BFO mapping (ontologies/sdc4-bfo.*)', () => {
  let mapping: Quad[];

  beforeAll(async () => {
    mapping = parseRdf(await readOntologyFile('sdc4-bfo.ttl'), 'text/turtle');
  });

  it('is its own ontology, version 1.0.0, without imports', () => {
    expect(MAPPING_ONTOLOGY_IRI).not.toBe(SDC4_ONTOLOGY_IRI);
    expect(MAPPING_ONTOLOGY_IRI).not.toBe(BFO_ONTOLOGY_IRI);
    const header = mapping
      .filter((q) => q.subject.value === MAPPING_ONTOLOGY_IRI)
      .map((q) => `${q.predicate.value} ${q.object.value}`)
      .sort();
    expect(header).toEqual([`${RDF_TYPE} ${NS.owl}Ontology`, `${NS.owl}versionInfo 1.0.0`]);
    expect(mapping.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === `${NS.owl}Ontology`)).toHaveLength(1);
    expect(mapping.some((q) => q.predicate.value === `${NS.owl}imports`)).toBe(false);
  });

  it('holds exactly the four subclass axioms to BFO_0000031 besides class declarations', () => {
    const rest = mapping.filter(
      (q) => q.subject.value !== MAPPING_ONTOLOGY_IRI && !(q.predicate.value === RDF_TYPE && q.object.value === `${NS.owl}Class`),
    );
    expect(rest.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`).sort()).toEqual(
      ['CMC', 'InvlType', 'InvlUnits', 'MagnitudeStatus'].map((local) => `${NS.sdc4}${local} ${SUBCLASS} ${GDC}`),
    );
  });

  it('has the same triples in RDF/XML and Turtle', async () => {
    const fromXml = parseRdf(await readOntologyFile('sdc4-bfo.owl'), 'application/rdf+xml');
    expect(nonBlankTriples(fromXml)).toEqual(nonBlankTriples(mapping));
    expect(fromXml).toHaveLength(mapping.length);
  });
});

describe('scripts/build-ontologies.ts', () => {
  it('regenerates the committed files byte for byte from the hierarchy data', async () => {
    for (const [name, content] of Object.entries(await buildOntologyFiles())) {
      expect({ name, content: await readOntologyFile(name) }).toEqual({ name, content });
    }
  });
});
