import { GraphQLSafeInt } from 'graphql-scalars';
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { JobKind } from '../entities/job.entity';
import { parseJobCursor } from '../jobs/job-cursor';
import { watchJobs } from '../jobs/job-feed';
import { unauthenticated } from '../lib/errors';
import { parseJobFilters } from '../parsers/jobs.parser';
import type { JobView } from '../presenters/job.presenter';
import type { Caller } from '../services/auth.service';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { JobKindEnum } from './enums';
import { jobNode, jobResultNode, JobResultUnion, JobType, type JobNode } from './jobs.types';

/** A subscription's caller: `subscribe` gets no parameter decorators, and `@Requires` has already refused anyone else. */
function subscriber(context: unknown): { services: GraphQLContext['services']; caller: Caller } {
  const { services, caller } = context as GraphQLContext;
  if (!caller) throw unauthenticated();
  return { services, caller };
}

@Resolver(() => JobType)
export class JobsResolver {
  @Requires('read')
  @Query(() => JobType, { description: 'A job of yours (or any, for staff).' })
  async job(@Arg('ctId') ctId: string, @CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<JobNode> {
    return jobNode(await ctx.services.jobs.getFor(caller, ctId), ctx.services.links);
  }

  @Requires('read')
  @Query(() => [JobType], { description: 'Your jobs, newest first, at most 100.' })
  async jobs(
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('kind', () => JobKindEnum, { nullable: true }) kind?: JobKind,
    @Arg('dataSource', () => String, { nullable: true }) dataSource?: string,
  ): Promise<JobNode[]> {
    const filters = parseJobFilters({ kind: kind ?? undefined, data_source: dataSource ?? undefined });
    return (await ctx.services.jobs.listFor(caller, filters)).map((job) => jobNode(job, ctx.services.links));
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description:
      'Every status and step of one job, each once and in order (`seq` 1, 2, …): its current one first, or with `afterSeq` every one after that (to resume after a reconnect); ends after completed or failed.',
    subscribe: ({ args, context }) => {
      const { services, caller } = subscriber(context);
      const { ctId, afterSeq } = args as { ctId: string; afterSeq?: number | null };
      return watchJobs(services, caller, { ctId, afterSeq: afterSeq ?? null });
    },
  })
  jobUpdated(
    @Root() job: JobNode,
    @Arg('ctId') _ctId: string,
    @Arg('afterSeq', () => Int, { nullable: true, description: 'The last `seq` you received; replays every later one.' }) _afterSeq?: number,
  ): JobNode {
    return job;
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description:
      'Every status and step of all your jobs from now on, each once and in order per job (`seq`). Each item carries a `cursor`: after a reconnect, pass the last one you received as `after` to get first every event you missed (job by job, in order), then the live ones, none twice. Events deleted meanwhile (JOB_EVENTS_RETENTION_DAYS) are not replayed.',
    subscribe: ({ args, context }) => {
      const { services, caller } = subscriber(context);
      const { after } = args as { after?: string | null };
      return watchJobs(services, caller, { ctId: null, after: after == null ? null : parseJobCursor(after) });
    },
  })
  myJobs(
    @Root() job: JobNode,
    @Arg('after', () => String, { nullable: true, description: 'The `cursor` of the last item you received; replays what came after it.' })
    _after?: string,
  ): JobNode {
    return job;
  }

  @FieldResolver(() => GraphQLSafeInt, { description: 'Charged so far, read from the ledger.' })
  costCredits(@Root() job: JobNode | JobView, @Ctx() ctx: GraphQLContext): number | Promise<number> {
    // A full view (a resolver that read the ledger already, a stored idempotent answer) carries its cost.
    return 'costCredits' in job ? job.costCredits : ctx.loaders.jobCost.load(job.id);
  }

  @FieldResolver(() => JobResultUnion, { nullable: true, description: 'What the job produced, typed by its kind; null until it has a result.' })
  result(@Root() job: JobNode | JobView): ReturnType<typeof jobResultNode> {
    return jobResultNode(job);
  }

  @FieldResolver(() => Int, {
    description: 'The number of the event this state is (per job, from 1): in a subscription the event shown, else the latest.',
  })
  seq(@Root() job: JobNode | JobView, @Ctx() ctx: GraphQLContext): number | Promise<number> {
    return ('seq' in job ? job.seq : null) ?? ctx.loaders.jobSeq.load(job.ctId);
  }
}
