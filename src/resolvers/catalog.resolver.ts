import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { parseClusterQuery, parseComponentQuery, parseModelQuery } from '../parsers/catalog.parser';
import {
  renderNode,
  type CatalogIndexView,
  type ClusterView,
  type ComponentView,
  type ModelSummaryView,
  type ModelView,
  type PageView,
} from '../presenters/catalog.presenter';
import type { Caller } from '../services/auth.service';
import type { Viewer } from '../services/catalog.service';
import {
  CatalogClusterArgs,
  CatalogClusterPage,
  CatalogComponentArgs,
  CatalogComponentPage,
  CatalogIndexType,
  CatalogModelSummaryType,
  CatalogModelType,
} from './catalog.types';
import { CurrentCaller, Requires, type GraphQLContext } from './context';

const viewer = (caller: Caller): Viewer => ({ userId: caller.user.id });

@Resolver(() => CatalogModelType)
export class CatalogResolver {
  @Requires('read')
  @Query(() => CatalogIndexType, { description: 'Counts and projects of the catalog as the caller sees it (drafts only their own).' })
  async catalogIndex(@Ctx() { services }: GraphQLContext, @CurrentCaller() caller: Caller): Promise<CatalogIndexView> {
    return services.catalog.index(viewer(caller));
  }

  @Requires('read')
  @Query(() => CatalogComponentPage, { description: 'Reusable components, by label; `search` matches label, description or ct_id.' })
  async catalogComponents(
    @Ctx() { services }: GraphQLContext,
    @CurrentCaller() caller: Caller,
    @Args(() => CatalogComponentArgs) args: CatalogComponentArgs,
  ): Promise<PageView<ComponentView>> {
    return services.catalog.listComponents(parseComponentQuery(args), viewer(caller));
  }

  @Requires('read')
  @Query(() => CatalogClusterPage)
  async catalogClusters(
    @Ctx() { services }: GraphQLContext,
    @CurrentCaller() caller: Caller,
    @Args(() => CatalogClusterArgs) args: CatalogClusterArgs,
  ): Promise<PageView<ClusterView>> {
    return services.catalog.listClusters(parseClusterQuery(args), viewer(caller));
  }

  @Requires('read')
  @Query(() => [CatalogModelSummaryType], { description: 'Data models, newest first, at most 100.' })
  async catalogModels(
    @Ctx() { services }: GraphQLContext,
    @CurrentCaller() caller: Caller,
    @Arg('search', () => String, { nullable: true }) search?: string,
  ): Promise<ModelSummaryView[]> {
    return services.catalog.listModels(parseModelQuery({ search }), viewer(caller));
  }

  @Requires('read')
  @Query(() => CatalogModelType, { description: "A data model with its tree; another user's draft is not found." })
  async catalogModel(@Arg('ctId') ctId: string, @Ctx() { services }: GraphQLContext, @CurrentCaller() caller: Caller): Promise<ModelView> {
    return services.catalog.modelDetail(ctId, viewer(caller));
  }

  @FieldResolver(() => GraphQLJSONObject)
  tree(@Root() model: ModelView): Record<string, unknown> {
    return renderNode(model.root);
  }
}
