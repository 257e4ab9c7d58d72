import { writeRdfXml } from '../rdf/rdfxml-writer';
import { ALL_PREFIXES } from './ontology-builder';
import { parseRdf, readOntologyFile } from './ontology-files';
import { MAPPING_ONTOLOGY_IRI, ONTOLOGY_FILES } from './vocabulary';

const cache = new Map<boolean, Promise<string>>();

/** The body of GET /api/v1/catalog/ontologies/sdc4/: the core ontology file as shipped, or with `include=bfo` the
 * core ontology plus the mapping's class declarations and four axioms (one document holds one ontology header,
 * so the mapping's own header is left out; the core keeps version 4.0.0 and gains no import). */
export function ontologyRdfXml(includeBfo: boolean): Promise<string> {
  let body = cache.get(includeBfo);
  if (!body) {
    body = includeBfo ? coreWithMapping() : readOntologyFile(ONTOLOGY_FILES.coreOwl);
    body.catch(() => cache.delete(includeBfo));
    cache.set(includeBfo, body);
  }
  return body;
}

async function coreWithMapping(): Promise<string> {
  const core = parseRdf(await readOntologyFile(ONTOLOGY_FILES.coreTtl), 'text/turtle');
  const mapping = parseRdf(await readOntologyFile(ONTOLOGY_FILES.mappingTtl), 'text/turtle').filter(
    (quad) => quad.subject.value !== MAPPING_ONTOLOGY_IRI,
  );
  return writeRdfXml([...core, ...mapping], ALL_PREFIXES);
}
