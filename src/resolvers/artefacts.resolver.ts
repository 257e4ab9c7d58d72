import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { ContextualComponent } from '../packages/contextual-slots';
import type { Skeleton } from '../packages/skeleton';
import type { SchemaVersionsView } from '../presenters/schema-hosting.presenter';
import type { Viewer } from '../services/catalog.service';
import { ContextualComponentType, ModelSkeletonType, SchemaVersionsType } from './artefacts.types';
import type { GraphQLContext } from './context';
import { PublicRead } from './read-limit';

const viewerOf = ({ caller }: GraphQLContext): Viewer => ({ userId: caller?.user.id ?? null });

@Resolver()
export class ArtefactsResolver {
  @PublicRead()
  @Query(() => ModelSkeletonType, { description: 'The skeleton of a model and its field mapping (published models without credentials).' })
  async modelSkeleton(@Arg('ctId') ctId: string, @Ctx() ctx: GraphQLContext): Promise<Skeleton> {
    return ctx.services.packages.skeleton(ctId, viewerOf(ctx));
  }

  @PublicRead()
  @Query(() => SchemaVersionsType, { description: 'Every published schema of a published model, as /dmlib/dm-<ct_id>.versions.json lists them.' })
  async schemaVersions(@Arg('ctId') ctId: string, @Ctx() { services }: GraphQLContext): Promise<SchemaVersionsView> {
    return services.schemas.versions(ctId);
  }

  @PublicRead()
  @Query(() => [ContextualComponentType], { description: 'The contextual library: the published component of each contextual slot.' })
  async contextualLibrary(@Ctx() { services }: GraphQLContext): Promise<ContextualComponent[]> {
    return services.contextual.library();
  }
}
