import { Arg, Ctx, Query, Resolver, Root, Subscription } from 'type-graphql';
import { watchJobs } from '../jobs/job-feed';
import { unauthenticated } from '../lib/errors';
import { parseJobFilters } from '../parsers/jobs.parser';
import type { JobView } from '../presenters/job.presenter';
import type { Caller } from '../services/auth.service';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { JobType } from './jobs.types';

/** A subscription's caller: `subscribe` gets no parameter decorators, and `@Requires` has already refused anyone else. */
function subscriber(context: unknown): { services: GraphQLContext['services']; caller: Caller } {
  const { services, caller } = context as GraphQLContext;
  if (!caller) throw unauthenticated();
  return { services, caller };
}

@Resolver()
export class JobsResolver {
  @Requires('read')
  @Query(() => JobType, { description: 'A job of yours (or any, for staff).' })
  async job(@Arg('ctId') ctId: string, @CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<JobView> {
    return ctx.services.jobs.view(await ctx.services.jobs.getFor(caller, ctId));
  }

  @Requires('read')
  @Query(() => [JobType], { description: 'Your jobs, newest first, at most 100.' })
  async jobs(
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('kind', () => String, { nullable: true }) kind?: string,
    @Arg('dataSource', () => String, { nullable: true }) dataSource?: string,
  ): Promise<JobView[]> {
    const filters = parseJobFilters({ kind: kind ?? undefined, data_source: dataSource ?? undefined });
    return ctx.services.jobs.views(await ctx.services.jobs.listFor(caller, filters));
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description: 'Every status and step change of one job, in order, starting with its current state.',
    subscribe: ({ args, context }) => {
      const { services, caller } = subscriber(context);
      return watchJobs(services, caller, (args as { ctId: string }).ctId);
    },
  })
  jobUpdated(@Root() job: JobView, @Arg('ctId') _ctId: string): JobView {
    return job;
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description: 'Changes of all your jobs.',
    subscribe: ({ context }) => {
      const { services, caller } = subscriber(context);
      return watchJobs(services, caller, null);
    },
  })
  myJobs(@Root() job: JobView): JobView {
    return job;
  }
}
