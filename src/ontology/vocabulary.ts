/** IRIs, file names and named graphs of the ontologies this project ships. */

export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  dcterms: 'http://purl.org/dc/terms/',
  sdc4: 'https://semanticdatacharter.com/ns/sdc4/',
  obo: 'http://purl.obolibrary.org/obo/',
} as const;

export const SDC4_ONTOLOGY_IRI = NS.sdc4;
export const BFO_ONTOLOGY_IRI = 'http://purl.obolibrary.org/obo/bfo.owl';
export const MAPPING_ONTOLOGY_IRI = 'https://semanticdatacharter.com/ns/sdc4-bfo/';
export const MAPPING_VERSION = '1.0.0';

export const BFO_GENERICALLY_DEPENDENT_CONTINUANT = `${NS.obo}BFO_0000031`;
export const BFO_PROCESS = `${NS.obo}BFO_0000015`;

/** The sdc4 classes the mapping places under BFO_0000031: the roots of the core hierarchy. */
export const MAPPED_SDC4_CLASSES = ['CMC', 'InvlType', 'InvlUnits', 'MagnitudeStatus'] as const;

export const ONTOLOGY_FILES = {
  coreOwl: 'sdc4.owl',
  coreTtl: 'sdc4.ttl',
  mappingOwl: 'sdc4-bfo.owl',
  mappingTtl: 'sdc4-bfo.ttl',
  bfo: 'bfo-2020.owl',
} as const;

/** Named graphs written by `triplestore init`: one per loaded file, plus the materialised inferences. */
export const GRAPHS = {
  core: SDC4_ONTOLOGY_IRI,
  bfo: BFO_ONTOLOGY_IRI,
  mapping: MAPPING_ONTOLOGY_IRI,
  inferred: 'urn:sdc-gateway:graph:owl2rl-inferred',
} as const;
