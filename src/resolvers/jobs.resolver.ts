import { Arg, Ctx, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Services } from '../container';
import type { Job } from '../entities/job.entity';
import { watchJobs } from '../jobs/job-feed';
import { jobUrl } from '../services/jobs.service';
import { Requires, type GraphQLContext } from './context';
import { JobType } from './jobs.types';

/** Jobs as GraphQL shows them, with `costCredits` read from the ledger in one query for all of them. */
export async function toJobTypes(services: Services, jobs: Job[]): Promise<JobType[]> {
  const costs = await services.ledger.jobCosts(jobs.map((job) => job.id));
  return jobs.map((job) => ({
    ctId: job.ctId,
    url: jobUrl(services.settings.publicBaseUrl, job.ctId),
    kind: job.kind,
    status: job.status,
    step: job.step,
    costCredits: costs.get(job.id) ?? 0,
    result: job.result,
    error: job.error,
    dataSourceCtId: job.dataSourceCtId,
    dmCtId: job.dmCtId,
    taskId: job.taskId,
    created: job.createdAt,
    updated: job.updatedAt,
  }));
}

export async function toJobType(services: Services, job: Job): Promise<JobType> {
  return (await toJobTypes(services, [job]))[0]!;
}

@Resolver()
export class JobsResolver {
  @Requires('read')
  @Query(() => JobType, { description: 'A job of yours (or any, for staff).' })
  async job(@Arg('ctId') ctId: string, @Ctx() ctx: GraphQLContext): Promise<JobType> {
    return toJobType(ctx.services, await ctx.services.jobs.getFor(ctx.caller!, ctId));
  }

  @Requires('read')
  @Query(() => [JobType], { description: 'Your jobs, newest first, at most 100.' })
  async jobs(
    @Ctx() ctx: GraphQLContext,
    @Arg('kind', () => String, { nullable: true }) kind?: string,
    @Arg('dataSource', () => String, { nullable: true }) dataSource?: string,
  ): Promise<JobType[]> {
    const jobs = await ctx.services.jobs.listFor(ctx.caller!, { kind: kind ?? undefined, dataSource: dataSource ?? undefined });
    return toJobTypes(ctx.services, jobs);
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description: 'Every status and step change of one job, in order, starting with its current state.',
    subscribe: ({ args, context }) => watchJobs((context as GraphQLContext).services, (context as GraphQLContext).caller!, args.ctId as string),
  })
  async jobUpdated(@Root() job: Job, @Arg('ctId') _ctId: string, @Ctx() ctx: GraphQLContext): Promise<JobType> {
    return toJobType(ctx.services, job);
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description: 'Changes of all your jobs.',
    subscribe: ({ context }) => watchJobs((context as GraphQLContext).services, (context as GraphQLContext).caller!, null),
  })
  async myJobs(@Root() job: Job, @Ctx() ctx: GraphQLContext): Promise<JobType> {
    return toJobType(ctx.services, job);
  }
}
