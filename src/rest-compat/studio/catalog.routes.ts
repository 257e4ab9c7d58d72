import { parseClusterQuery, parseComponentQuery, parseModelQuery } from '../../parsers/catalog.parser';
import { renderCluster, renderComponent, renderIndex, renderModel, renderModelSummary, renderPage } from '../../presenters/catalog.presenter';
import type { Caller } from '../../services/auth.service';
import { parseAppProfile } from '../../parsers/generation.parser';
import type { Viewer } from '../../services/catalog.service';
import { fileResult, route, type RouteContext } from '../route-table';
import { arr, int, str } from '../../lib/json-schema';
import { clusterSchema, componentSchema, indexSchema, modelSchema, modelSummarySchema, pageSchema } from '../../presenters/catalog.schema';

const viewer = (caller: Caller): Viewer => ({ userId: caller.user.id });

/** A public read: counted against the caller's hourly limit (429 past it), then read as the caller or anonymously. */
export async function publicReader(ctx: RouteContext<Caller | null>): Promise<Viewer> {
  const userId = ctx.caller?.user.id ?? null;
  const left = await ctx.services.readLimits.check(userId === null ? null : { userId }, ctx.req.ip ?? 'unknown');
  ctx.res.setHeader('X-RateLimit-Limit', String(left.limit));
  ctx.res.setHeader('X-RateLimit-Remaining', String(left.remaining));
  return { userId };
}

export const catalogRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/',
    requirement: 'public',
    doc: { summary: 'Catalog index', tag: 'Catalog', responses: { 200: { description: 'Endpoints, data types and counts.', schema: indexSchema } } },
    handle: async (ctx) => ({ status: 200, body: renderIndex(await ctx.services.catalog.index(await publicReader(ctx)), ctx.services.links) }),
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/components/',
    requirement: 'public',
    doc: {
      summary: 'Search components',
      tag: 'Catalog',
      query: { type: str(), project: str(), search: str(), status: str(), scope: str(), page: int(), page_size: int() },
      responses: { 200: { description: 'One page of components.', schema: pageSchema(componentSchema) } },
    },
    handle: async (ctx) => {
      const { type, project, search, status, page, page_size: pageSize, scope } = ctx.query;
      const parsed = parseComponentQuery({ type, project, search, status, page, pageSize, scope });
      const found = await ctx.services.catalog.listComponents(parsed, await publicReader(ctx));
      return { status: 200, body: renderPage(found, renderComponent) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/clusters/',
    requirement: 'public',
    doc: {
      summary: 'Search clusters',
      tag: 'Catalog',
      query: { type: str(), project: str(), search: str(), status: str(), scope: str(), page: int(), page_size: int() },
      responses: { 200: { description: 'One page of clusters.', schema: pageSchema(clusterSchema) } },
    },
    handle: async (ctx) => {
      const { project, search, page, page_size: pageSize, scope } = ctx.query;
      const found = await ctx.services.catalog.listClusters(parseClusterQuery({ project, search, page, pageSize, scope }), await publicReader(ctx));
      return { status: 200, body: renderPage(found, renderCluster) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dms/',
    requirement: 'public',
    doc: {
      summary: 'List data models',
      tag: 'Catalog',
      query: { search: str(), project: str(), scope: str() },
      responses: { 200: { description: 'The models you may see.', schema: arr(modelSummarySchema) } },
    },
    handle: async (ctx) => {
      const models = await ctx.services.catalog.listModels(parseModelQuery(ctx.query), await publicReader(ctx));
      return { status: 200, body: models.map(renderModelSummary) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/',
    requirement: 'public',
    doc: { summary: 'One data model', tag: 'Catalog', responses: { 200: { description: 'The model and its component tree.', schema: modelSchema } } },
    handle: async (ctx) => ({
      status: 200,
      body: renderModel(await ctx.services.catalog.modelDetail(ctx.params.ctId, await publicReader(ctx))),
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/package/',
    requirement: 'public',
    doc: {
      summary: 'Download the stored package',
      tag: 'Artefacts',
      responses: { 200: { description: 'The package ZIP.', contentType: 'application/zip' } },
    },
    handle: async (ctx) => {
      const stored = await ctx.services.packages.storedPackage(ctx.params.ctId, await publicReader(ctx));
      return fileResult(stored, 'application/zip', 'attachment');
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/app/',
    requirement: 'read',
    doc: {
      summary: 'Download the application package',
      tag: 'Artefacts',
      query: { profile: str() },
      responses: { 200: { description: 'The application ZIP.', contentType: 'application/zip' } },
    },
    handle: async (ctx) => {
      const stored = await ctx.services.packages.downloadApp(ctx.params.ctId, parseAppProfile(ctx.query.profile), {
        ...viewer(ctx.caller),
        isStaff: ctx.caller.user.isStaff,
      });
      return fileResult(stored, 'application/zip', 'attachment');
    },
  }),
];
