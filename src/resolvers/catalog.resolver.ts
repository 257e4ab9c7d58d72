import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, createParameterDecorator, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
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
import type { GraphQLContext } from './context';
import { PublicRead } from './read-limit';

/** The reader of a public field: the caller when credentials were valid, else anonymous. */
const Reader = () => createParameterDecorator<GraphQLContext>(({ context }): Viewer => ({ userId: context.caller?.user.id ?? null }));

@Resolver(() => CatalogModelType)
export class CatalogResolver {
  @PublicRead()
  @Query(() => CatalogIndexType, {
    description: 'Counts and projects of the catalog as the caller sees it (drafts only their own; public entries without credentials).',
  })
  async catalogIndex(@Ctx() { services }: GraphQLContext, @Reader() viewer: Viewer): Promise<CatalogIndexView> {
    return services.catalog.index(viewer);
  }

  @PublicRead()
  @Query(() => CatalogComponentPage, { description: 'Reusable components, by label; `search` matches label, description or ct_id.' })
  async catalogComponents(
    @Ctx() { services }: GraphQLContext,
    @Reader() viewer: Viewer,
    @Args(() => CatalogComponentArgs) args: CatalogComponentArgs,
  ): Promise<PageView<ComponentView>> {
    return services.catalog.listComponents(parseComponentQuery(args), viewer);
  }

  @PublicRead()
  @Query(() => CatalogClusterPage)
  async catalogClusters(
    @Ctx() { services }: GraphQLContext,
    @Reader() viewer: Viewer,
    @Args(() => CatalogClusterArgs) args: CatalogClusterArgs,
  ): Promise<PageView<ClusterView>> {
    return services.catalog.listClusters(parseClusterQuery(args), viewer);
  }

  @PublicRead()
  @Query(() => [CatalogModelSummaryType], { description: 'Data models, newest first, at most 100.' })
  async catalogModels(
    @Ctx() { services }: GraphQLContext,
    @Reader() viewer: Viewer,
    @Arg('search', () => String, { nullable: true }) search?: string,
  ): Promise<ModelSummaryView[]> {
    return services.catalog.listModels(parseModelQuery({ search }), viewer);
  }

  @PublicRead()
  @Query(() => CatalogModelType, { description: "A data model with its tree; another user's draft is not found." })
  async catalogModel(@Arg('ctId') ctId: string, @Ctx() { services }: GraphQLContext, @Reader() viewer: Viewer): Promise<ModelView> {
    return services.catalog.modelDetail(ctId, viewer);
  }

  @FieldResolver(() => GraphQLJSONObject)
  tree(@Root() model: ModelView): Record<string, unknown> {
    return renderNode(model.root);
  }
}
