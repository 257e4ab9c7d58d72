import {
  COMPONENT_SLUGS,
  parseClusterFields,
  parseComponentFields,
  parseComponentSlug,
  parseDraftPage,
  parseModelFields,
  parseNewCluster,
  parseNewComponent,
  parseNewModel,
  parseNewNamespace,
  parseNewPredicate,
  parseNewPredObj,
  type ComponentSlug,
} from '../../parsers/drafts.parser';
import { renderLinkedPage } from '../../presenters/catalog.presenter';
import {
  mintHeaders,
  renderClusterDraft,
  renderComponentDraft,
  renderModelDraft,
  renderNamespace,
  renderPredicate,
  renderPredObj,
} from '../../presenters/drafts.presenter';
import { route, type RouteContext, type StudioRoute } from '../route-table';

/** The drafts API of modeling tools (`../shared/spec/clients.md`): one set of routes per component type, then
 * clusters, models (with publishing) and the semantic vocabulary. Writing needs `build`, reading `read`; minting a
 * component also charges, so its service asks for `spend` too (as assemble does), and honours Idempotency-Key. */

const BASE = '/api/v1/dmgen';

/** The URL of another page of the same list: the request's query with `page` replaced. */
const pageUrlOf = (ctx: Pick<RouteContext, 'req' | 'services'>) => (page: number) => {
  const url = new URL(ctx.req.originalUrl, ctx.services.links.base);
  url.searchParams.set('page', String(page));
  return `${ctx.services.links.base}${url.pathname}${url.search}`;
};

const pageOf = (ctx: RouteContext) => parseDraftPage({ page: ctx.query.page, pageSize: ctx.query.page_size });

function componentRoutes(slug: ComponentSlug): StudioRoute[] {
  const dataType = parseComponentSlug(slug);
  return [
    route({
      method: 'get',
      path: `${BASE}/${slug}/`,
      requirement: 'read',
      handle: async (ctx) => {
        const found = await ctx.services.drafts.components.list(ctx.caller.user.id, dataType, pageOf(ctx));
        return { status: 200, body: renderLinkedPage(found, renderComponentDraft, pageUrlOf(ctx)) };
      },
    }),
    route({
      method: 'post',
      path: `${BASE}/${slug}/`,
      requirement: 'build',
      idempotent: true,
      handle: async ({ services, caller, body }) => {
        const minted = await services.drafts.components.create(caller, parseNewComponent(slug, body));
        return { status: 201, headers: mintHeaders(minted), body: renderComponentDraft(minted.component) };
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/${slug}/:ctId/`,
      requirement: 'read',
      handle: async ({ services, caller, params }) => ({
        status: 200,
        body: renderComponentDraft(await services.drafts.components.get(caller.user.id, dataType, params.ctId)),
      }),
    }),
    route({
      method: 'patch',
      path: `${BASE}/${slug}/:ctId/`,
      requirement: 'build',
      handle: async ({ services, caller, params, body }) => ({
        status: 200,
        body: renderComponentDraft(await services.drafts.components.update(caller.user.id, dataType, params.ctId, parseComponentFields(body, null))),
      }),
    }),
  ];
}

export const draftsRoutes: StudioRoute[] = [
  ...(Object.keys(COMPONENT_SLUGS) as ComponentSlug[]).flatMap(componentRoutes),
  route({
    method: 'get',
    path: `${BASE}/clusters/`,
    requirement: 'read',
    handle: async (ctx) => {
      const found = await ctx.services.drafts.structure.listClusters(ctx.caller.user.id, pageOf(ctx));
      return { status: 200, body: renderLinkedPage(found, renderClusterDraft, pageUrlOf(ctx)) };
    },
  }),
  route({
    method: 'post',
    path: `${BASE}/clusters/`,
    requirement: 'build',
    handle: async ({ services, caller, body }) => ({
      status: 201,
      body: renderClusterDraft(await services.drafts.structure.createCluster(caller.user.id, parseNewCluster(body))),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/clusters/:ctId/`,
    requirement: 'read',
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderClusterDraft(await services.drafts.structure.getCluster(caller.user.id, params.ctId)),
    }),
  }),
  route({
    method: 'patch',
    path: `${BASE}/clusters/:ctId/`,
    requirement: 'build',
    handle: async ({ services, caller, params, body }) => ({
      status: 200,
      body: renderClusterDraft(await services.drafts.structure.updateCluster(caller.user.id, params.ctId, parseClusterFields(body))),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/dms/`,
    requirement: 'read',
    handle: async (ctx) => {
      const found = await ctx.services.drafts.structure.listModels(ctx.caller.user.id, pageOf(ctx));
      return { status: 200, body: renderLinkedPage(found, renderModelDraft, pageUrlOf(ctx)) };
    },
  }),
  route({
    method: 'post',
    path: `${BASE}/dms/`,
    requirement: 'build',
    handle: async ({ services, caller, body }) => ({
      status: 201,
      body: renderModelDraft(await services.drafts.structure.createModel(caller.user.id, parseNewModel(body))),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/dms/:ctId/`,
    requirement: 'read',
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderModelDraft(await services.drafts.structure.getModel(caller.user.id, params.ctId)),
    }),
  }),
  route({
    method: 'patch',
    path: `${BASE}/dms/:ctId/`,
    requirement: 'build',
    handle: async ({ services, caller, params, body }) => ({
      status: 200,
      body: renderModelDraft(await services.drafts.structure.updateModel(caller.user.id, params.ctId, parseModelFields(body))),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/dms/:ctId/publish/`,
    requirement: 'build',
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderModelDraft(await services.drafts.structure.publishModel(caller.user.id, params.ctId)),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/namespaces/`,
    requirement: 'read',
    handle: async (ctx) => ({
      status: 200,
      body: renderLinkedPage(await ctx.services.drafts.semantics.listNamespaces(pageOf(ctx)), renderNamespace, pageUrlOf(ctx)),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/namespaces/`,
    requirement: 'build',
    handle: async ({ services, caller, body }) => {
      const { namespace, created } = await services.drafts.semantics.createNamespace(caller.user.id, parseNewNamespace(body));
      return { status: created ? 201 : 200, body: renderNamespace(namespace) };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/predicates/`,
    requirement: 'read',
    handle: async (ctx) => ({
      status: 200,
      body: renderLinkedPage(await ctx.services.drafts.semantics.listPredicates(pageOf(ctx)), renderPredicate, pageUrlOf(ctx)),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/predicates/`,
    requirement: 'build',
    handle: async ({ services, caller, body }) => {
      const { predicate, created } = await services.drafts.semantics.createPredicate(caller.user.id, parseNewPredicate(body));
      return { status: created ? 201 : 200, body: renderPredicate(predicate) };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/pred-objs/`,
    requirement: 'read',
    handle: async (ctx) => ({
      status: 200,
      body: renderLinkedPage(await ctx.services.drafts.semantics.listPredObjs(ctx.caller.user.id, pageOf(ctx)), renderPredObj, pageUrlOf(ctx)),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/pred-objs/`,
    requirement: 'build',
    handle: async ({ services, caller, body }) => ({
      status: 201,
      body: renderPredObj(await services.drafts.semantics.createPredObj(caller.user.id, parseNewPredObj(body))),
    }),
  }),
];
