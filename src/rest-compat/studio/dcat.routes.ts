import { renderDcatJsonLd, renderDcatTurtle } from '../../presenters/dcat.presenter';
import { route } from '../route-table';
import { publicReader } from './catalog.routes';

/** The DCAT 3 catalog of the public library, anonymous like the catalog: every published model of a public project,
 * never a draft (a caller's own drafts are not listed even to them). */
export const dcatRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/dcat.ttl',
    requirement: 'public',
    doc: {
      summary: 'The DCAT 3 catalog of the published models (Turtle)',
      tag: 'Catalog',
      responses: { 200: { description: 'One dcat:Dataset per published public model, with its distributions.', contentType: 'text/turtle' } },
    },
    handle: async (ctx) => {
      await publicReader(ctx);
      const turtle = await renderDcatTurtle(await ctx.services.dcat.catalog(), ctx.services.links);
      return { status: 200, raw: turtle, headers: { 'Content-Type': 'text/turtle; charset=utf-8' } };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dcat.jsonld',
    requirement: 'public',
    doc: {
      summary: 'The DCAT 3 catalog of the published models (JSON-LD)',
      tag: 'Catalog',
      responses: { 200: { description: 'The same triples as dcat.ttl, as JSON-LD.', contentType: 'application/ld+json' } },
    },
    handle: async (ctx) => {
      await publicReader(ctx);
      const body = renderDcatJsonLd(await ctx.services.dcat.catalog(), ctx.services.links);
      return { status: 200, raw: JSON.stringify(body), headers: { 'Content-Type': 'application/ld+json; charset=utf-8' } };
    },
  }),
];
