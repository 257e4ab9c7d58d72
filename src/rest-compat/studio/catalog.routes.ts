import { parseClusterQuery, parseComponentQuery, parseModelQuery } from '../../parsers/catalog.parser';
import { renderCluster, renderComponent, renderIndex, renderModel, renderModelSummary, renderPage } from '../../presenters/catalog.presenter';
import type { Caller } from '../../services/auth.service';
import { parseAppProfile } from '../../parsers/generation.parser';
import type { Viewer } from '../../services/catalog.service';
import { ARTIFACTS, type ArtifactKind } from '../../packages/artifacts';
import { route } from '../route-table';

// The skeleton has its own route (artefacts.routes.ts): it answers JSON too.
const ARTIFACT_KINDS = (Object.keys(ARTIFACTS) as ArtifactKind[]).filter((kind) => kind !== 'skeleton');

const viewer = (caller: Caller): Viewer => ({ userId: caller.user.id });

export const catalogRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/',
    requirement: 'read',
    handle: async ({ services, caller }) => ({ status: 200, body: renderIndex(await services.catalog.index(viewer(caller)), services.links) }),
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/components/',
    requirement: 'read',
    handle: async ({ services, caller, query }) => {
      const { type, project, search, status, page, page_size: pageSize } = query;
      const found = await services.catalog.listComponents(parseComponentQuery({ type, project, search, status, page, pageSize }), viewer(caller));
      return { status: 200, body: renderPage(found, renderComponent) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/clusters/',
    requirement: 'read',
    handle: async ({ services, caller, query }) => {
      const { project, search, page, page_size: pageSize } = query;
      const found = await services.catalog.listClusters(parseClusterQuery({ project, search, page, pageSize }), viewer(caller));
      return { status: 200, body: renderPage(found, renderCluster) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dms/',
    requirement: 'read',
    handle: async ({ services, caller, query }) => {
      const models = await services.catalog.listModels(parseModelQuery(query), viewer(caller));
      return { status: 200, body: models.map(renderModelSummary) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/',
    requirement: 'read',
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderModel(await services.catalog.modelDetail(params.ctId, viewer(caller))),
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/package/',
    requirement: 'read',
    handle: async (ctx) => {
      const stored = await ctx.services.packages.storedPackage(ctx.params.ctId, viewer(ctx.caller));
      return {
        status: 200,
        raw: stored.content,
        headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${stored.fileName}"` },
      };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/app/',
    requirement: 'read',
    handle: async (ctx) => {
      const stored = await ctx.services.packages.downloadApp(ctx.params.ctId, parseAppProfile(ctx.query.profile), {
        ...viewer(ctx.caller),
        isStaff: ctx.caller.user.isStaff,
      });
      return {
        status: 200,
        raw: stored.content,
        headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${stored.fileName}"` },
      };
    },
  }),
  ...ARTIFACT_KINDS.map((kind) =>
    route({
      method: 'get',
      path: `/api/v1/catalog/dm/:ctId/${kind}/`,
      requirement: 'read',
      handle: async (ctx) => {
        const artifact = await ctx.services.packages.artifact(ctx.params.ctId, kind, viewer(ctx.caller));
        return {
          status: 200,
          raw: artifact.content,
          headers: { 'Content-Type': artifact.contentType, 'Content-Disposition': `inline; filename="${artifact.fileName}"` },
        };
      },
    }),
  ),
];
