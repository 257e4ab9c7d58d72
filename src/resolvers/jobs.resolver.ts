import { Arg, Ctx, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Services } from '../container';
import type { Job } from '../entities/job.entity';
import type { Caller } from '../services/auth.service';
import type { JobEvent } from '../services/jobs.service';
import { Requires, type GraphQLContext } from './context';
import { JobType } from './jobs.types';

export async function toJobType(services: Services, job: Job): Promise<JobType> {
  return {
    ctId: job.ctId,
    url: `${services.settings.publicBaseUrl}/api/v1/jobs/${job.ctId}/`,
    kind: job.kind,
    status: job.status,
    step: job.step,
    costCredits: await services.ledger.jobCost(job.id),
    result: job.result,
    error: job.error,
    dataSourceCtId: job.dataSourceCtId,
    dmCtId: job.dmCtId,
    taskId: job.taskId,
    created: job.createdAt,
    updated: job.updatedAt,
  };
}

/** Streams the caller's job states: the current state first (a reconnecting client misses no final state),
 * then one item per change. After a lost database connection the job (or, for all jobs, every job changed since
 * the subscription began) is re-read, since changes made while the listener was away were not announced to it.
 * Ends after a final state when `ctId` names one job. */
async function* jobStream(services: Services, caller: Caller, ctId: string | null): AsyncGenerator<Job> {
  const queue: Array<JobEvent | 'resync'> = [];
  let wake: (() => void) | null = null;
  const push = (item: JobEvent | 'resync') => {
    queue.push(item);
    wake?.();
  };
  const unsubscribe = services.events!.subscribe(
    (event) => {
      if ((ctId ? event.ctId === ctId : true) && (event.userId === caller.user.id || (ctId !== null && caller.user.isStaff))) push(event);
    },
    () => push('resync'),
  );
  const final = (job: Job) => ctId !== null && (job.status === 'completed' || job.status === 'failed');
  const since = services.clock.now();
  const changedSinceStart = async () =>
    (await services.jobs.listFor(caller, {}))
      .filter((job) => job.updatedAt >= since)
      .reverse()
      .map((job) => job.ctId);
  try {
    if (ctId) {
      const job = await services.jobs.getFor(caller, ctId);
      yield job;
      if (final(job)) return;
    }
    let lastSeen = new Map<string, string>();
    for (;;) {
      if (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const item = queue.shift()!;
      const targets = item === 'resync' ? (ctId ? [ctId] : await changedSinceStart()) : [item.ctId];
      for (const target of targets) {
        const job = await services.jobs.getFor(caller, target);
        const signature = `${job.status}|${job.step}|${job.updatedAt.toISOString()}`;
        if (lastSeen.get(target) === signature) continue;
        lastSeen = new Map(lastSeen).set(target, signature);
        yield job;
        if (final(job)) return;
      }
    }
  } finally {
    unsubscribe();
  }
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
    return Promise.all(jobs.map((j) => toJobType(ctx.services, j)));
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description: 'Every status and step change of one job, in order, starting with its current state.',
    subscribe: ({ args, context }) => jobStream((context as GraphQLContext).services, (context as GraphQLContext).caller!, args.ctId as string),
  })
  async jobUpdated(@Root() job: Job, @Arg('ctId') _ctId: string, @Ctx() ctx: GraphQLContext): Promise<JobType> {
    return toJobType(ctx.services, job);
  }

  @Requires('read')
  @Subscription(() => JobType, {
    description: 'Changes of all your jobs.',
    subscribe: ({ context }) => jobStream((context as GraphQLContext).services, (context as GraphQLContext).caller!, null),
  })
  async myJobs(@Root() job: Job, @Ctx() ctx: GraphQLContext): Promise<JobType> {
    return toJobType(ctx.services, job);
  }
}
