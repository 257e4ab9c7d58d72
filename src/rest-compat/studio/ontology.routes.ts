import { ontologyRdfXml } from '../../ontology/ontology-document';
import { parseOntologyInclude } from '../../parsers/catalog.parser';
import { route } from '../route-table';
import { str } from '../../lib/json-schema';

export const ontologyRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/ontologies/sdc4/',
    requirement: 'public',
    doc: {
      summary: 'The SDC4 ontology (RDF/XML)',
      tag: 'Catalog',
      query: { include: str() },
      responses: { 200: { description: 'The ontology.', contentType: 'application/rdf+xml' } },
    },
    handle: async ({ query }) => {
      const withBfo = parseOntologyInclude(query.include);
      return { status: 200, raw: await ontologyRdfXml(withBfo), headers: { 'Content-Type': 'application/rdf+xml' } };
    },
  }),
];
