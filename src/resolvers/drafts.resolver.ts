import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import {
  parseClusterFields,
  parseComponentFields,
  parseDraftDataType,
  parseDraftPage,
  parseModelFields,
  parseNewCluster,
  parseNewComponentOfType,
  parseNewModel,
} from '../parsers/drafts.parser';
import { parseNewNamespace, parseNewPredicate, parseNewPredObj } from '../parsers/drafts-vocabulary.parser';
import type { PageView } from '../presenters/catalog.presenter';
import type {
  ClusterDraftView,
  ComponentDraftView,
  ComponentMintView,
  ModelDraftView,
  NamespaceView,
  PredicateView,
  PredObjView,
} from '../presenters/drafts.presenter';
import type { Caller } from '../services/auth.service';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import {
  DraftClusterInput,
  DraftClusterPage,
  DraftClusterType,
  DraftClusterUpdateInput,
  DraftComponentInput,
  DraftComponentMintType,
  DraftComponentPage,
  DraftComponentType,
  DraftComponentUpdateInput,
  DraftModelInput,
  DraftModelPage,
  DraftModelType,
  DraftModelUpdateInput,
  NamespaceInput,
  NamespacePage,
  NamespaceType,
  PredicateInput,
  PredicatePage,
  PredicateType,
  PredObjInput,
  PredObjPage,
  PredObjType,
} from './drafts.types';
import { IDEMPOTENCY_KEY_DOC, idempotently } from './idempotency';

const pageArgs = (page?: number | null, pageSize?: number | null) => parseDraftPage({ page: page ?? undefined, pageSize: pageSize ?? undefined });
const PAGE = { nullable: true } as const;

/** The drafts API in GraphQL: the same parsers and services as the REST routes (drafts.routes.ts). */
@Resolver()
export class DraftsResolver {
  @Requires('read')
  @Query(() => DraftComponentPage, { description: 'Your components of one type, drafts first.' })
  async draftComponents(
    @Arg('dataType') dataType: string,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
    @Arg('page', () => Int, PAGE) page?: number,
    @Arg('pageSize', () => Int, PAGE) pageSize?: number,
  ): Promise<PageView<ComponentDraftView>> {
    return services.drafts.components.list(caller.user.id, parseDraftDataType(dataType), pageArgs(page, pageSize));
  }

  @Requires('read')
  @Query(() => DraftComponentType, { description: "A component of yours, or a published one; another user's draft is not found." })
  async draftComponent(
    @Arg('dataType') dataType: string,
    @Arg('ctId') ctId: string,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<ComponentDraftView> {
    return services.drafts.components.get(caller.user.id, parseDraftDataType(dataType), ctId);
  }

  @Requires('build', { charges: 'draft' })
  @Mutation(() => DraftComponentMintType, { description: 'Mints a draft component: charges the component price (a key needs spend too).' })
  async createDraftComponent(
    @Arg('input', () => DraftComponentInput) input: DraftComponentInput,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<ComponentMintView> {
    const parsed = parseNewComponentOfType(input.dataType, input.toBody());
    return idempotently(ctx, caller, 'createDraftComponent', idempotencyKey, parsed, () => ctx.services.drafts.components.create(caller, parsed));
  }

  @Requires('build')
  @Mutation(() => DraftComponentType, { description: 'Edits a draft of yours; a published component is immutable (409).' })
  async updateDraftComponent(
    @Arg('dataType') dataType: string,
    @Arg('ctId') ctId: string,
    @Arg('input', () => DraftComponentUpdateInput) input: DraftComponentUpdateInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<ComponentDraftView> {
    return services.drafts.components.update(caller.user.id, parseDraftDataType(dataType), ctId, parseComponentFields(input.toBody(), null));
  }

  @Requires('read')
  @Query(() => DraftClusterPage)
  async draftClusters(
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
    @Arg('page', () => Int, PAGE) page?: number,
    @Arg('pageSize', () => Int, PAGE) pageSize?: number,
  ): Promise<PageView<ClusterDraftView>> {
    return services.drafts.structure.listClusters(caller.user.id, pageArgs(page, pageSize));
  }

  @Requires('read')
  @Query(() => DraftClusterType)
  async draftCluster(@Arg('ctId') ctId: string, @CurrentCaller() caller: Caller, @Ctx() { services }: GraphQLContext): Promise<ClusterDraftView> {
    return services.drafts.structure.getCluster(caller.user.id, ctId);
  }

  @Requires('build', { charges: 'draft' })
  @Mutation(() => DraftClusterType, { description: 'Creates a draft cluster: charges the cluster price (a key needs spend too).' })
  async createDraftCluster(
    @Arg('input', () => DraftClusterInput) input: DraftClusterInput,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<ClusterDraftView> {
    const parsed = parseNewCluster(input.toBody());
    return idempotently(
      ctx,
      caller,
      'createDraftCluster',
      idempotencyKey,
      parsed,
      async () => (await ctx.services.drafts.structure.createCluster(caller, parsed)).cluster,
    );
  }

  @Requires('build')
  @Mutation(() => DraftClusterType)
  async updateDraftCluster(
    @Arg('ctId') ctId: string,
    @Arg('input', () => DraftClusterUpdateInput) input: DraftClusterUpdateInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<ClusterDraftView> {
    return services.drafts.structure.updateCluster(caller.user.id, ctId, parseClusterFields(input.toBody()));
  }

  @Requires('read')
  @Query(() => DraftModelPage)
  async draftModels(
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
    @Arg('page', () => Int, PAGE) page?: number,
    @Arg('pageSize', () => Int, PAGE) pageSize?: number,
  ): Promise<PageView<ModelDraftView>> {
    return services.drafts.structure.listModels(caller.user.id, pageArgs(page, pageSize));
  }

  @Requires('read')
  @Query(() => DraftModelType)
  async draftModel(@Arg('ctId') ctId: string, @CurrentCaller() caller: Caller, @Ctx() { services }: GraphQLContext): Promise<ModelDraftView> {
    return services.drafts.structure.getModel(caller.user.id, ctId);
  }

  @Requires('build', { charges: 'draft' })
  @Mutation(() => DraftModelType, { description: 'Creates a draft data model on a root cluster: charges the model price (a key needs spend too).' })
  async createDraftModel(
    @Arg('input', () => DraftModelInput) input: DraftModelInput,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<ModelDraftView> {
    const parsed = parseNewModel(input.toBody());
    return idempotently(
      ctx,
      caller,
      'createDraftModel',
      idempotencyKey,
      parsed,
      async () => (await ctx.services.drafts.structure.createModel(caller, parsed)).model,
    );
  }

  @Requires('build')
  @Mutation(() => DraftModelType)
  async updateDraftModel(
    @Arg('ctId') ctId: string,
    @Arg('input', () => DraftModelUpdateInput) input: DraftModelUpdateInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<ModelDraftView> {
    return services.drafts.structure.updateModel(caller.user.id, ctId, parseModelFields(input.toBody()));
  }

  @Requires('build', { charges: 'draft' })
  @Mutation(() => DraftModelType, {
    description: 'Publishes your draft model with its tree, bottom-up: charges its drafts no door charged for (a key needs spend too).',
  })
  async publishDraftModel(@Arg('ctId') ctId: string, @CurrentCaller() caller: Caller, @Ctx() { services }: GraphQLContext): Promise<ModelDraftView> {
    return services.drafts.structure.publishModel(caller, ctId);
  }

  @Requires('read')
  @Query(() => NamespacePage)
  async semanticNamespaces(
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
    @Arg('page', () => Int, PAGE) page?: number,
    @Arg('pageSize', () => Int, PAGE) pageSize?: number,
  ): Promise<PageView<NamespaceView>> {
    return services.drafts.semantics.listNamespaces(caller.user.id, pageArgs(page, pageSize));
  }

  @Requires('build')
  @Mutation(() => NamespaceType)
  async createSemanticNamespace(
    @Arg('input', () => NamespaceInput) input: NamespaceInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<NamespaceView> {
    return (await services.drafts.semantics.createNamespace(caller.user.id, parseNewNamespace({ abbrev: input.abbrev, uri: input.uri }))).namespace;
  }

  @Requires('read')
  @Query(() => PredicatePage)
  async semanticPredicates(
    @Ctx() { services }: GraphQLContext,
    @Arg('page', () => Int, PAGE) page?: number,
    @Arg('pageSize', () => Int, PAGE) pageSize?: number,
  ): Promise<PageView<PredicateView>> {
    return services.drafts.semantics.listPredicates(pageArgs(page, pageSize));
  }

  @Requires('build')
  @Mutation(() => PredicateType)
  async createSemanticPredicate(
    @Arg('input', () => PredicateInput) input: PredicateInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<PredicateView> {
    const parsed = parseNewPredicate({ ns_abbrev: input.nsAbbrev, class_name: input.className });
    return (await services.drafts.semantics.createPredicate(caller.user.id, parsed)).predicate;
  }

  @Requires('read')
  @Query(() => PredObjPage, { description: 'The predicate-object pairs of your projects.' })
  async predObjs(
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
    @Arg('page', () => Int, PAGE) page?: number,
    @Arg('pageSize', () => Int, PAGE) pageSize?: number,
  ): Promise<PageView<PredObjView>> {
    return services.drafts.semantics.listPredObjs(caller.user.id, pageArgs(page, pageSize));
  }

  @Requires('build')
  @Mutation(() => PredObjType)
  async createPredObj(
    @Arg('input', () => PredObjInput) input: PredObjInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<PredObjView> {
    const parsed = parseNewPredObj({ predicate: input.predicate, object_uri: input.objectUri, po_name: input.poName, project: input.project });
    return services.drafts.semantics.createPredObj(caller.user.id, parsed);
  }
}
