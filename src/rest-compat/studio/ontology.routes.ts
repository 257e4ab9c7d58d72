import { ontologyRdfXml } from '../../ontology/ontology-document';
import { parseOntologyInclude } from '../../parsers/catalog.parser';
import { route } from '../route-table';

export const ontologyRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/ontologies/sdc4/',
    requirement: 'public',
    handle: async ({ query }) => {
      const withBfo = parseOntologyInclude(query.include);
      return { status: 200, raw: await ontologyRdfXml(withBfo), headers: { 'Content-Type': 'application/rdf+xml' } };
    },
  }),
];
