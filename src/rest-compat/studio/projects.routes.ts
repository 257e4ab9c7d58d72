import { parseDmgenComponentQuery, parseProjectPage } from '../../parsers/catalog.parser';
import { renderDmgenComponent, renderLinkedPage } from '../../presenters/catalog.presenter';
import { renderModeler, renderProject } from '../../presenters/projects.presenter';
import { route } from '../route-table';
import { int, str } from '../../lib/json-schema';
import { dmgenComponentSchema, linkedPageSchema } from '../../presenters/catalog.schema';
import { modelerSchema, projectSchema } from '../../presenters/projects.schema';
import { pageUrlOf } from './drafts-docs';

/** Projects, the modeler and the studio's component list (`/dmgen/components/`), as the toolkit reads them. */
export const projectsRoutes = [
  route({
    method: 'get',
    path: '/api/v1/auth/modeler/',
    requirement: 'read',
    doc: {
      summary: 'The modeler and their default project',
      tag: 'Projects',
      responses: { 200: { description: 'The modeler.', schema: modelerSchema } },
    },
    handle: async ({ services, caller }) => ({ status: 200, body: renderModeler(await services.projects.modeler(caller.user.id)) }),
  }),
  route({
    method: 'get',
    path: '/api/v1/dmgen/projects/',
    requirement: 'read',
    doc: {
      summary: 'Your projects',
      tag: 'Projects',
      query: { page: int(), page_size: int() },
      responses: { 200: { description: 'One page of projects.', schema: linkedPageSchema(projectSchema) } },
    },
    handle: async (ctx) => {
      const found = await ctx.services.projects.list(ctx.caller.user.id, parseProjectPage({ page: ctx.query.page, pageSize: ctx.query.page_size }));
      return { status: 200, body: renderLinkedPage(found, renderProject, pageUrlOf(ctx)) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/dmgen/components/',
    requirement: 'read',
    doc: {
      summary: 'Components, clusters and Units for the studio',
      description:
        '`type` is the lowercase data type (`xdstring`, …), `cluster` or `units`, and filters the list the same way; `published=true|false` is `status=published|draft`.',
      tag: 'Projects',
      query: { type: str(), project: str(), search: str(), status: str(), published: str(), scope: str(), page: int(), page_size: int() },
      responses: { 200: { description: 'One page of components.', schema: linkedPageSchema(dmgenComponentSchema) } },
    },
    handle: async (ctx) => {
      const { type, project, search, status, published, page, page_size: pageSize, scope } = ctx.query;
      const parsed = parseDmgenComponentQuery({ type, project, search, status, published, page, pageSize, scope });
      const found = await ctx.services.catalog.listStudioComponents(parsed, { userId: ctx.caller.user.id });
      return { status: 200, body: renderLinkedPage(found, renderDmgenComponent, pageUrlOf(ctx)) };
    },
  }),
];
