import { badRequest } from '../lib/errors';
import { ontologyRdfXml } from '../ontology/ontology-document';
import { route } from './route-table';

export const ontologyRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/ontologies/sdc4/',
    requirement: 'read',
    handle: async (ctx) => {
      const include = ctx.query.include;
      if (include !== undefined && include !== 'bfo') {
        throw badRequest('Unknown include value: the only one is "bfo" (adds the SDC4-BFO mapping).', { include });
      }
      return { status: 200, raw: await ontologyRdfXml(include === 'bfo'), headers: { 'Content-Type': 'application/rdf+xml' } };
    },
  }),
];
