import {
  COMPONENT_SLUGS,
  parseClusterFields,
  parseComponentFields,
  parseComponentSlug,
  parseModelFields,
  parseNewCluster,
  parseNewComponent,
  parseNewModel,
  type ComponentSlug,
} from '../../parsers/drafts.parser';
import { parseNewNamespace, parseNewPredicate, parseNewPredObj } from '../../parsers/drafts-vocabulary.parser';
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
import {
  clusterDraftPageSchema,
  clusterDraftSchema,
  componentDraftPageSchema,
  componentDraftSchema,
  modelDraftPageSchema,
  modelDraftSchema,
  namespacePageSchema,
  namespaceSchema,
  predicatePageSchema,
  predicateSchema,
  predObjPageSchema,
  predObjSchema,
} from '../../presenters/drafts.schema';
import {
  clusterUpdateBodySchema,
  componentUpdateBodySchema,
  modelUpdateBodySchema,
  newClusterBodySchema,
  newComponentBodySchema,
  newModelBodySchema,
  newNamespaceBodySchema,
  newPredicateBodySchema,
  newPredObjBodySchema,
} from '../../parsers/drafts.schema';
import { route, type StudioRoute } from '../route-table';
import { BASE, bodyDoc, CHARGED, listDoc, oneDoc, pageOf, pageUrlOf, TAG } from './drafts-docs';
import { unitsRoutes } from './drafts-units.routes';

/** The drafts API of modeling tools (`../shared/spec/clients.md`): one set of routes per component type, then
 * clusters, models (with publishing) and the semantic vocabulary. Writing needs `build`, reading `read`; creating a
 * component, a cluster or a model also charges (the assembly's prices), so its route declares `charges` and the edge asks for `spend` too (as
 * assemble does), the answer carries the X-SDC headers, and Idempotency-Key is honoured. */

function componentRoutes(slug: ComponentSlug): StudioRoute[] {
  const dataType = parseComponentSlug(slug);
  return [
    route({
      method: 'get',
      path: `${BASE}/${slug}/`,
      requirement: 'read',
      doc: listDoc(`Your ${dataType} components (drafts and published)`, componentDraftPageSchema),
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
      charges: 'draft',
      doc: bodyDoc(
        `Mint a draft ${dataType} (charged)`,
        newComponentBodySchema,
        { 201: { description: 'The draft component.', schema: componentDraftSchema } },
        CHARGED,
      ),
      handle: async ({ services, caller, body }) => {
        const minted = await services.drafts.components.create(caller, parseNewComponent(slug, body));
        return { status: 201, headers: mintHeaders(minted), body: renderComponentDraft(minted.component) };
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/${slug}/:ctId/`,
      requirement: 'read',
      doc: oneDoc(`One ${dataType} of yours`, componentDraftSchema),
      handle: async ({ services, caller, params }) => ({
        status: 200,
        body: renderComponentDraft(await services.drafts.components.get(caller.user.id, dataType, params.ctId)),
      }),
    }),
    route({
      method: 'patch',
      path: `${BASE}/${slug}/:ctId/`,
      requirement: 'build',
      doc: bodyDoc(`Edit a draft ${dataType} (published: 409)`, componentUpdateBodySchema, {
        200: { description: 'The edited draft.', schema: componentDraftSchema },
      }),
      handle: async ({ services, caller, params, body }) => ({
        status: 200,
        body: renderComponentDraft(await services.drafts.components.update(caller.user.id, dataType, params.ctId, parseComponentFields(body, null))),
      }),
    }),
  ];
}

export const draftsRoutes: StudioRoute[] = [
  ...(Object.keys(COMPONENT_SLUGS) as ComponentSlug[]).flatMap(componentRoutes),
  ...unitsRoutes,
  route({
    method: 'get',
    path: `${BASE}/clusters/`,
    requirement: 'read',
    doc: listDoc('Your clusters (drafts and published)', clusterDraftPageSchema),
    handle: async (ctx) => {
      const found = await ctx.services.drafts.structure.listClusters(ctx.caller.user.id, pageOf(ctx));
      return { status: 200, body: renderLinkedPage(found, renderClusterDraft, pageUrlOf(ctx)) };
    },
  }),
  route({
    method: 'post',
    path: `${BASE}/clusters/`,
    requirement: 'build',
    idempotent: true,
    charges: 'draft',
    doc: bodyDoc(
      'Create a draft cluster (charged)',
      newClusterBodySchema,
      { 201: { description: 'The draft cluster.', schema: clusterDraftSchema } },
      CHARGED,
    ),
    handle: async ({ services, caller, body }) => {
      const minted = await services.drafts.structure.createCluster(caller, parseNewCluster(body));
      return { status: 201, headers: mintHeaders(minted), body: renderClusterDraft(minted.cluster) };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/clusters/:ctId/`,
    requirement: 'read',
    doc: oneDoc('One cluster of yours', clusterDraftSchema),
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderClusterDraft(await services.drafts.structure.getCluster(caller.user.id, params.ctId)),
    }),
  }),
  route({
    method: 'patch',
    path: `${BASE}/clusters/:ctId/`,
    requirement: 'build',
    doc: bodyDoc('Edit a draft cluster (published: 409)', clusterUpdateBodySchema, {
      200: { description: 'The edited draft.', schema: clusterDraftSchema },
    }),
    handle: async ({ services, caller, params, body }) => ({
      status: 200,
      body: renderClusterDraft(await services.drafts.structure.updateCluster(caller.user.id, params.ctId, parseClusterFields(body))),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/dms/`,
    requirement: 'read',
    doc: listDoc('Your data models (drafts and published)', modelDraftPageSchema),
    handle: async (ctx) => {
      const found = await ctx.services.drafts.structure.listModels(ctx.caller.user.id, pageOf(ctx));
      return { status: 200, body: renderLinkedPage(found, renderModelDraft, pageUrlOf(ctx)) };
    },
  }),
  route({
    method: 'post',
    path: `${BASE}/dms/`,
    requirement: 'build',
    idempotent: true,
    charges: 'draft',
    doc: bodyDoc(
      'Create a draft data model on a root cluster (charged)',
      newModelBodySchema,
      { 201: { description: 'The draft model.', schema: modelDraftSchema } },
      CHARGED,
    ),
    handle: async ({ services, caller, body }) => {
      const minted = await services.drafts.structure.createModel(caller, parseNewModel(body));
      return { status: 201, headers: mintHeaders(minted), body: renderModelDraft(minted.model) };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/dms/:ctId/`,
    requirement: 'read',
    doc: oneDoc('One data model of yours', modelDraftSchema),
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderModelDraft(await services.drafts.structure.getModel(caller.user.id, params.ctId)),
    }),
  }),
  route({
    method: 'patch',
    path: `${BASE}/dms/:ctId/`,
    requirement: 'build',
    doc: bodyDoc('Edit a draft data model (published: 409)', modelUpdateBodySchema, {
      200: { description: 'The edited draft.', schema: modelDraftSchema },
    }),
    handle: async ({ services, caller, params, body }) => ({
      status: 200,
      body: renderModelDraft(await services.drafts.structure.updateModel(caller.user.id, params.ctId, parseModelFields(body))),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/dms/:ctId/publish/`,
    requirement: 'build',
    idempotent: true,
    charges: 'draft',
    doc: {
      summary: 'Publish a draft model with its tree, bottom-up, charging its drafts no door charged for (published: 409)',
      tag: TAG,
      responses: { 200: { description: 'The published model.', schema: modelDraftSchema } },
    },
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderModelDraft(await services.drafts.structure.publishModel(caller, params.ctId)),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/namespaces/`,
    requirement: 'read',
    doc: listDoc('Semantic namespaces', namespacePageSchema),
    handle: async (ctx) => ({
      status: 200,
      body: renderLinkedPage(await ctx.services.drafts.semantics.listNamespaces(ctx.caller.user.id, pageOf(ctx)), renderNamespace, pageUrlOf(ctx)),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/namespaces/`,
    requirement: 'build',
    doc: bodyDoc('Add a namespace (the same pair again: 200; the prefix taken by another URI: 409)', newNamespaceBodySchema, {
      201: { description: 'Created.', schema: namespaceSchema },
      200: { description: 'The existing namespace (same prefix and URI).', schema: namespaceSchema },
    }),
    handle: async ({ services, caller, body }) => {
      const { namespace, created } = await services.drafts.semantics.createNamespace(caller.user.id, parseNewNamespace(body));
      return { status: created ? 201 : 200, body: renderNamespace(namespace) };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/predicates/`,
    requirement: 'read',
    doc: listDoc('Semantic predicates', predicatePageSchema),
    handle: async (ctx) => ({
      status: 200,
      body: renderLinkedPage(await ctx.services.drafts.semantics.listPredicates(pageOf(ctx)), renderPredicate, pageUrlOf(ctx)),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/predicates/`,
    requirement: 'build',
    doc: bodyDoc('Add a predicate (the same namespace and class name again: 200)', newPredicateBodySchema, {
      201: { description: 'Created.', schema: predicateSchema },
      200: { description: 'The existing predicate.', schema: predicateSchema },
    }),
    handle: async ({ services, caller, body }) => {
      const { predicate, created } = await services.drafts.semantics.createPredicate(caller.user.id, parseNewPredicate(body));
      return { status: created ? 201 : 200, body: renderPredicate(predicate) };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/pred-objs/`,
    requirement: 'read',
    doc: listDoc('Your predicate-object pairs', predObjPageSchema),
    handle: async (ctx) => ({
      status: 200,
      body: renderLinkedPage(await ctx.services.drafts.semantics.listPredObjs(ctx.caller.user.id, pageOf(ctx)), renderPredObj, pageUrlOf(ctx)),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/pred-objs/`,
    requirement: 'build',
    doc: bodyDoc('Add a predicate-object pair', newPredObjBodySchema, { 201: { description: 'Created.', schema: predObjSchema } }),
    handle: async ({ services, caller, body }) => ({
      status: 201,
      body: renderPredObj(await services.drafts.semantics.createPredObj(caller.user.id, parseNewPredObj(body))),
    }),
  }),
];
