import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { parseProjectPage } from '../parsers/catalog.parser';
import type { PageView } from '../presenters/catalog.presenter';
import type { ModelerView, ProjectListView } from '../presenters/projects.presenter';
import type { Caller } from '../services/auth.service';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { ModelerType, ProjectPage, ProjectPageArgs } from './projects.types';

@Resolver()
export class ProjectsResolver {
  @Requires('read')
  @Query(() => ModelerType, { description: 'The caller and their default project (where assembly files new components).' })
  async modeler(@Ctx() { services }: GraphQLContext, @CurrentCaller() caller: Caller): Promise<ModelerView> {
    return services.projects.modeler(caller.user.id);
  }

  @Requires('read')
  @Query(() => ProjectPage, { description: "The library and the caller's own projects." })
  async projects(
    @Ctx() { services }: GraphQLContext,
    @CurrentCaller() caller: Caller,
    @Args(() => ProjectPageArgs) args: ProjectPageArgs,
  ): Promise<PageView<ProjectListView>> {
    return services.projects.list(caller.user.id, parseProjectPage(args));
  }
}
