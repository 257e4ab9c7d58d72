import {
  presentCluster,
  presentComponent,
  presentIndex,
  presentModel,
  presentModelSummary,
  presentPage,
} from '../presenters/catalog.presenter';
import { parseAppProfile } from '../parsers/generation.parser';
import type { Viewer } from '../services/catalog.service';
import { ARTIFACTS, type ArtifactKind } from '../services/package.service';
import { route, type RouteContext } from './route-table';

const ARTIFACT_KINDS = Object.keys(ARTIFACTS) as ArtifactKind[];

const viewer = (ctx: RouteContext): Viewer => ({ userId: ctx.caller!.user.id });
const base = (ctx: RouteContext) => ctx.services.settings.publicBaseUrl;

export const catalogRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/',
    requirement: 'read',
    handle: async (ctx) => ({ status: 200, body: presentIndex(await ctx.services.catalog.index(viewer(ctx)), base(ctx)) }),
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/components/',
    requirement: 'read',
    handle: async (ctx) => {
      const { type, project, search, status, page, page_size: pageSize } = ctx.query;
      const found = await ctx.services.catalog.listComponents({ type, project, search, status, page, pageSize }, viewer(ctx));
      return { status: 200, body: presentPage(found, presentComponent) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/clusters/',
    requirement: 'read',
    handle: async (ctx) => {
      const { project, search, page, page_size: pageSize } = ctx.query;
      const found = await ctx.services.catalog.listClusters({ project, search, page, pageSize }, viewer(ctx));
      return { status: 200, body: presentPage(found, presentCluster) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dms/',
    requirement: 'read',
    handle: async (ctx) => {
      const models = await ctx.services.catalog.listModels({ search: ctx.query.search }, viewer(ctx));
      return { status: 200, body: models.map((m) => presentModelSummary(m, base(ctx))) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/',
    requirement: 'read',
    handle: async (ctx) => ({ status: 200, body: presentModel(await ctx.services.catalog.modelDetail(ctx.params.ctId!, viewer(ctx)), base(ctx)) }),
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/package/',
    requirement: 'read',
    handle: async (ctx) => {
      const stored = await ctx.services.packages.storedPackage(ctx.params.ctId!, viewer(ctx));
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
      const stored = await ctx.services.packages.downloadApp(ctx.params.ctId!, parseAppProfile(ctx.query.profile), { ...viewer(ctx), isStaff: ctx.caller!.user.isStaff });
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
        const artifact = await ctx.services.packages.artifact(ctx.params.ctId!, kind, viewer(ctx));
        return {
          status: 200,
          raw: artifact.content,
          headers: { 'Content-Type': artifact.contentType, 'Content-Disposition': `inline; filename="${artifact.fileName}"` },
        };
      },
    }),
  ),
];
