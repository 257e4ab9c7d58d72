import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { TreeNode } from '../domain/model-tree';
import { presentModel, presentModelSummary, presentTree, reuseRef } from '../presenters/catalog.presenter';
import type { ClusterListing, ComponentListing, ModelDetail, ModelSummary, Viewer } from '../services/catalog.service';
import {
  CatalogClusterPage,
  CatalogComponentPage,
  CatalogIndexType,
  CatalogModelSummaryType,
  CatalogModelType,
  CatalogNodeType,
} from './catalog.types';
import { Requires, type GraphQLContext } from './context';

const viewer = (ctx: GraphQLContext): Viewer => ({ userId: ctx.caller!.user.id });

const toComponent = (c: ComponentListing) => ({
  ctId: c.ctId,
  label: c.label,
  description: c.description,
  componentType: c.dataType,
  projectName: c.projectName,
  reuseRef: reuseRef(c.projectName, c.label),
  units: c.units,
  status: c.status,
  successor: c.successorCtId,
});

const toCluster = (c: ClusterListing) => ({
  ctId: c.ctId,
  label: c.label,
  description: c.description,
  projectName: c.projectName,
  reuseRef: reuseRef(c.projectName, c.label),
  status: c.status,
  successor: c.successorCtId,
  childCount: c.childCount,
});

function toNode(node: TreeNode): CatalogNodeType {
  if (node.kind === 'component') {
    return { type: node.dataType, ctId: node.ctId, label: node.label, description: node.description, units: node.units, children: [] };
  }
  return { type: 'Cluster', ctId: node.ctId, label: node.label, description: node.description, units: null, children: node.children.map(toNode) };
}

function toSummary(m: ModelSummary, base: string): CatalogModelSummaryType {
  const { about, identifier } = presentModelSummary(m, base);
  return { ctId: m.ctId, identifier, title: m.title, description: m.description, projectName: m.projectName, about, created: m.created, updated: m.updated };
}

/** A model as CatalogModel shows it; the assembly's BuiltModel extends it. */
export function catalogModelType(detail: ModelDetail, base: string): CatalogModelType {
  const presented = presentModel(detail, base);
  return {
    ...toSummary(detail, base),
    published: detail.published,
    generated: detail.generated,
    packageUrl: presented.package_url,
    contextual: detail.contextual,
    artifacts: presented.artifacts,
    root: toNode(detail.root),
    tree: { ...presentTree(detail.root) },
  };
}

@Resolver()
export class CatalogResolver {
  @Requires('read')
  @Query(() => CatalogIndexType, { description: 'Counts and projects of the catalog as the caller sees it (drafts only their own).' })
  async catalogIndex(@Ctx() ctx: GraphQLContext): Promise<CatalogIndexType> {
    const index = await ctx.services.catalog.index(viewer(ctx));
    return { dataTypes: [...index.dataTypes], ...index.counts, projects: index.projects };
  }

  @Requires('read')
  @Query(() => CatalogComponentPage, { description: 'Reusable components, by label; `search` matches label, description or ct_id.' })
  async catalogComponents(
    @Ctx() ctx: GraphQLContext,
    @Arg('type', () => String, { nullable: true }) type?: string,
    @Arg('project', () => String, { nullable: true }) project?: string,
    @Arg('search', () => String, { nullable: true }) search?: string,
    @Arg('status', () => String, { nullable: true }) status?: string,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize?: number,
  ): Promise<CatalogComponentPage> {
    const found = await ctx.services.catalog.listComponents({ type, project, search, status, page, pageSize }, viewer(ctx));
    return { ...found, results: found.results.map(toComponent) };
  }

  @Requires('read')
  @Query(() => CatalogClusterPage)
  async catalogClusters(
    @Ctx() ctx: GraphQLContext,
    @Arg('project', () => String, { nullable: true }) project?: string,
    @Arg('search', () => String, { nullable: true }) search?: string,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize?: number,
  ): Promise<CatalogClusterPage> {
    const found = await ctx.services.catalog.listClusters({ project, search, page, pageSize }, viewer(ctx));
    return { ...found, results: found.results.map(toCluster) };
  }

  @Requires('read')
  @Query(() => [CatalogModelSummaryType], { description: 'Data models, newest first, at most 100.' })
  async catalogModels(@Ctx() ctx: GraphQLContext, @Arg('search', () => String, { nullable: true }) search?: string): Promise<CatalogModelSummaryType[]> {
    const base = ctx.services.settings.publicBaseUrl;
    return (await ctx.services.catalog.listModels({ search }, viewer(ctx))).map((m) => toSummary(m, base));
  }

  @Requires('read')
  @Query(() => CatalogModelType, { description: "A data model with its tree; another user's draft is not found." })
  async catalogModel(@Arg('ctId') ctId: string, @Ctx() ctx: GraphQLContext): Promise<CatalogModelType> {
    return catalogModelType(await ctx.services.catalog.modelDetail(ctId, viewer(ctx)), ctx.services.settings.publicBaseUrl);
  }
}
