import type { Quad, Quad_Object } from 'n3';
import { writeRdfXml } from '../rdf/rdfxml-writer';
import { writeTurtle } from '../rdf/turtle-writer';
import { blankNode, literal, namedNode, quad } from '../rdf/terms';
import { BFO_CLASSES, BFO_DISJOINT_GROUPS, BFO_DISJOINT_PAIRS } from './bfo-2020.data';
import {
  SDC4_CLASSES,
  SDC4_DATATYPE_PROPERTIES,
  SDC4_LIST_DATATYPES,
  SDC4_MAGNITUDE_STATUSES,
  SDC4_OBJECT_PROPERTIES,
  SDC4_VERSION,
  type DataRange,
} from './sdc4-core.data';
import {
  BFO_GENERICALLY_DEPENDENT_CONTINUANT,
  BFO_ONTOLOGY_IRI,
  MAPPED_SDC4_CLASSES,
  MAPPING_ONTOLOGY_IRI,
  MAPPING_VERSION,
  NS,
  ONTOLOGY_FILES,
  SDC4_ONTOLOGY_IRI,
} from './vocabulary';

const iri = (curie: string) => {
  const [prefix, local] = curie.split(':') as [keyof typeof NS, string];
  return namedNode(NS[prefix] + local);
};
const sdc4 = (local: string) => namedNode(NS.sdc4 + local);
const obo = (local: string) => namedNode(NS.obo + local);
const en = (text: string) => literal(text, 'en');

/** XSD types in the OWL 2 datatype map need no declaration; others (xsd:date, xsd:gYear, …) must be declared. */
const OWL2_XSD_DATATYPES = new Set([
  'anyURI',
  'base64Binary',
  'boolean',
  'dateTime',
  'decimal',
  'double',
  'float',
  'integer',
  'language',
  'nonNegativeInteger',
  'short',
  'string',
  'token',
]);

/** Emits triples in a fixed order so the generated files are byte-for-byte reproducible. */
class TripleList {
  readonly quads: Quad[] = [];
  add(subject: Quad['subject'], predicate: string, object: Quad_Object): this {
    this.quads.push(quad(subject, iri(predicate), object));
    return this;
  }
}

function decimalBetween(list: TripleList, [min, max]: [number, number]): Quad_Object {
  const restriction = blankNode(`decimal_${min}_${max}`.replace(/-/g, 'm'));
  const lower = blankNode(`${restriction.value}_min`);
  const upper = blankNode(`${restriction.value}_max`);
  const first = blankNode(`${restriction.value}_list1`);
  const second = blankNode(`${restriction.value}_list2`);
  list
    .add(restriction, 'rdf:type', iri('rdfs:Datatype'))
    .add(restriction, 'owl:onDatatype', iri('xsd:decimal'))
    .add(restriction, 'owl:withRestrictions', first)
    .add(first, 'rdf:first', lower)
    .add(first, 'rdf:rest', second)
    .add(second, 'rdf:first', upper)
    .add(second, 'rdf:rest', iri('rdf:nil'))
    .add(lower, 'xsd:minInclusive', literal(min.toFixed(6), iri('xsd:decimal')))
    .add(upper, 'xsd:maxInclusive', literal(max.toFixed(6), iri('xsd:decimal')));
  return restriction;
}

function dataRange(list: TripleList, range: Exclude<DataRange, null>): Quad_Object {
  return typeof range === 'string' ? iri(range) : decimalBetween(list, range.decimalBetween);
}

/** The SDC4 core ontology 4.0.0: classes, labels, properties with domains and ranges, MagnitudeStatus values. */
function sdc4CoreQuads(): Quad[] {
  const list = new TripleList();
  const ontology = namedNode(SDC4_ONTOLOGY_IRI);
  list
    .add(ontology, 'rdf:type', iri('owl:Ontology'))
    .add(ontology, 'rdfs:label', en(`Semantic Data Charter (SDC4) Release ${SDC4_VERSION}; Reference Model Ontology`))
    .add(ontology, 'rdfs:comment', en('The classes and properties for building SDC4-compliant data models.'))
    .add(ontology, 'owl:versionInfo', literal(SDC4_VERSION));
  const xsdRanges = Object.values(SDC4_DATATYPE_PROPERTIES)
    .map(([, range]) => range)
    .filter((range): range is string => typeof range === 'string' && range.startsWith('xsd:'));
  for (const range of [...new Set(xsdRanges)].sort()) {
    if (!OWL2_XSD_DATATYPES.has(range.slice(4))) list.add(iri(range), 'rdf:type', iri('rdfs:Datatype'));
  }
  for (const name of SDC4_LIST_DATATYPES) list.add(sdc4(name), 'rdf:type', iri('rdfs:Datatype'));
  for (const [name, [domain, range]] of Object.entries(SDC4_OBJECT_PROPERTIES)) {
    list
      .add(sdc4(name), 'rdf:type', iri('owl:ObjectProperty'))
      .add(sdc4(name), 'rdfs:label', literal(name))
      .add(sdc4(name), 'rdfs:domain', sdc4(domain))
      .add(sdc4(name), 'rdfs:range', sdc4(range));
  }
  for (const [name, [domains, range]] of Object.entries(SDC4_DATATYPE_PROPERTIES)) {
    list.add(sdc4(name), 'rdf:type', iri('owl:DatatypeProperty')).add(sdc4(name), 'rdfs:label', literal(name));
    for (const domain of domains) list.add(sdc4(name), 'rdfs:domain', sdc4(domain));
    if (range !== null) list.add(sdc4(name), 'rdfs:range', dataRange(list, range));
  }
  for (const [name, [parent, label]] of Object.entries(SDC4_CLASSES)) {
    list.add(sdc4(name), 'rdf:type', iri('owl:Class')).add(sdc4(name), 'rdfs:label', en(label));
    if (parent) list.add(sdc4(name), 'rdfs:subClassOf', parent === 'owl:Thing' ? iri(parent) : sdc4(parent));
  }
  for (const name of SDC4_MAGNITUDE_STATUSES) {
    list
      .add(sdc4(name), 'rdf:type', iri('owl:NamedIndividual'))
      .add(sdc4(name), 'rdf:type', sdc4('MagnitudeStatus'))
      .add(sdc4(name), 'rdfs:label', literal(name));
  }
  return list.quads;
}

/** BFO 2020: its 36 classes with labels and parents, and its disjointness axioms. */
function bfoQuads(): Quad[] {
  const list = new TripleList();
  const ontology = namedNode(BFO_ONTOLOGY_IRI);
  list
    .add(ontology, 'rdf:type', iri('owl:Ontology'))
    .add(ontology, 'rdfs:label', en('BFO 2020'))
    .add(
      ontology,
      'rdfs:comment',
      en(
        'The class hierarchy and disjointness axioms of Basic Formal Ontology 2020 (ISO/IEC 21838-2:2021), bundled so that no network access is needed.',
      ),
    )
    .add(ontology, 'dcterms:license', namedNode('https://creativecommons.org/licenses/by/4.0/'))
    .add(ontology, 'owl:versionInfo', literal('2020'));
  for (const [id, [parent, label]] of Object.entries(BFO_CLASSES)) {
    list.add(obo(id), 'rdf:type', iri('owl:Class')).add(obo(id), 'rdfs:label', en(label));
    if (parent) list.add(obo(id), 'rdfs:subClassOf', obo(parent));
  }
  for (const [left, right] of BFO_DISJOINT_PAIRS) list.add(obo(left), 'owl:disjointWith', obo(right));
  BFO_DISJOINT_GROUPS.forEach((members, index) => {
    const group = blankNode(`disjoint_group_${index + 1}`);
    list.add(group, 'rdf:type', iri('owl:AllDisjointClasses'));
    const cells = members.map((_, position) => blankNode(`${group.value}_member_${position + 1}`));
    list.add(group, 'owl:members', cells[0]);
    members.forEach((member, position) => {
      list.add(cells[position], 'rdf:first', obo(member));
      list.add(cells[position], 'rdf:rest', position + 1 < cells.length ? cells[position + 1] : iri('rdf:nil'));
    });
  });
  return list.quads;
}

/** The alignment: its own ontology IRI and version, class declarations, and the four subclass axioms. */
function mappingQuads(): Quad[] {
  const list = new TripleList();
  const ontology = namedNode(MAPPING_ONTOLOGY_IRI);
  list.add(ontology, 'rdf:type', iri('owl:Ontology')).add(ontology, 'owl:versionInfo', literal(MAPPING_VERSION));
  list.add(namedNode(BFO_GENERICALLY_DEPENDENT_CONTINUANT), 'rdf:type', iri('owl:Class'));
  for (const name of MAPPED_SDC4_CLASSES) {
    list.add(sdc4(name), 'rdf:type', iri('owl:Class')).add(sdc4(name), 'rdfs:subClassOf', namedNode(BFO_GENERICALLY_DEPENDENT_CONTINUANT));
  }
  return list.quads;
}

const CORE_PREFIXES = { rdf: NS.rdf, rdfs: NS.rdfs, owl: NS.owl, xsd: NS.xsd, sdc4: NS.sdc4 };
const BFO_PREFIXES = { rdf: NS.rdf, rdfs: NS.rdfs, owl: NS.owl, dcterms: NS.dcterms, obo: NS.obo };
const MAPPING_PREFIXES = { rdf: NS.rdf, rdfs: NS.rdfs, owl: NS.owl, sdc4: NS.sdc4, obo: NS.obo };

export const ALL_PREFIXES = { rdf: NS.rdf, rdfs: NS.rdfs, owl: NS.owl, xsd: NS.xsd, dcterms: NS.dcterms, sdc4: NS.sdc4, obo: NS.obo };

/** Every file in ontologies/, by name, exactly as the build script writes it. */
export async function buildOntologyFiles(): Promise<Record<string, string>> {
  const core = sdc4CoreQuads();
  const mapping = mappingQuads();
  return {
    [ONTOLOGY_FILES.coreOwl]: writeRdfXml(core, CORE_PREFIXES),
    [ONTOLOGY_FILES.coreTtl]: await writeTurtle(core, CORE_PREFIXES),
    [ONTOLOGY_FILES.mappingOwl]: writeRdfXml(mapping, MAPPING_PREFIXES),
    [ONTOLOGY_FILES.mappingTtl]: await writeTurtle(mapping, MAPPING_PREFIXES),
    [ONTOLOGY_FILES.bfo]: writeRdfXml(bfoQuads(), BFO_PREFIXES),
  };
}
