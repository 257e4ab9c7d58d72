/** Namespace prefixes whose meaning is fixed by their vocabularies: nobody may register one for another URI, and
 * registering one for its own URI adds (or answers) the shared, ownerless namespace every user sees. */
const WELL_KNOWN_PREFIXES: Readonly<Record<string, string>> = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  dct: 'http://purl.org/dc/terms/',
  dcterms: 'http://purl.org/dc/terms/',
  dc: 'http://purl.org/dc/elements/1.1/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  prov: 'http://www.w3.org/ns/prov#',
  schema: 'https://schema.org/',
  sh: 'http://www.w3.org/ns/shacl#',
  dcat: 'http://www.w3.org/ns/dcat#',
  sdc4: 'https://semanticdatacharter.com/ns/sdc4/',
};

/** The URI a well-known prefix stands for (case-insensitively: `FOAF` is no way around it), else null. */
export function reservedUriOf(abbrev: string): string | null {
  return Object.prototype.hasOwnProperty.call(WELL_KNOWN_PREFIXES, abbrev.toLowerCase()) ? WELL_KNOWN_PREFIXES[abbrev.toLowerCase()] : null;
}
