import { parse } from 'oxigraph';
import { ontologyRdfXml } from '../../../src/ontology/ontology-document';
import { parseRdf, readOntologyFile } from '../../../src/ontology/ontology-files';
import { NS, SDC4_ONTOLOGY_IRI } from '../../../src/ontology/vocabulary';

const GDC = `${NS.obo}BFO_0000031`;

describe('ontologyRdfXml (body of GET /api/v1/catalog/ontologies/sdc4/)', () => {
  it('serves the shipped core ontology file unchanged', async () => {
    expect(await ontologyRdfXml(false)).toBe(await readOntologyFile('sdc4.owl'));
  });

  it('with include=bfo adds the four mapping axioms to the core, under the core ontology header only', async () => {
    const quads = parse(await ontologyRdfXml(true), { format: 'application/rdf+xml' });
    const core = parseRdf(await readOntologyFile('sdc4.ttl'), 'text/turtle');
    const added = quads.filter((q) => q.object.value === GDC && q.predicate.value === `${NS.rdfs}subClassOf`);
    expect(added.map((q) => q.subject.value).sort()).toEqual(
      ['CMC', 'InvlType', 'InvlUnits', 'MagnitudeStatus'].map((local) => `${NS.sdc4}${local}`),
    );
    expect(quads).toHaveLength(core.length + 4 + 1);
    const ontologies = quads.filter((q) => q.predicate.value === `${NS.rdf}type` && q.object.value === `${NS.owl}Ontology`);
    expect(ontologies.map((q) => q.subject.value)).toEqual([SDC4_ONTOLOGY_IRI]);
    expect(quads.find((q) => q.subject.value === SDC4_ONTOLOGY_IRI && q.predicate.value === `${NS.owl}versionInfo`)?.object.value).toBe('4.0.0');
    expect(quads.some((q) => q.predicate.value === `${NS.owl}imports`)).toBe(false);
  });
});
