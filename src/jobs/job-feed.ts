import type { Services } from '../container';
import type { JobView } from '../presenters/job.presenter';
import type { Caller } from '../services/auth.service';
import { jobVisibleTo, type JobEvent } from '../services/jobs.service';

type Feed = Pick<Services, 'events' | 'jobs' | 'clock'>;

/** Streams the caller's job states: the current state first (a reconnecting client misses no final state),
 * then one item per change. After a lost database connection the job (or, for all jobs, every job changed since
 * the subscription began) is re-read, since changes made while the listener was away were not announced to it.
 * Ends after a final state when `ctId` names one job. `return()` (the socket closed, its credential ended) ends
 * it at once, even while it waits for an event, so it stops listening then and not at the next event. */
export function watchJobs(services: Feed, caller: Caller, ctId: string | null): AsyncGenerator<JobView> {
  const signal = { stopped: false, wake: null as (() => void) | null };
  const stream = jobStream(services, caller, ctId, signal);
  const stop = stream.return.bind(stream);
  stream.return = (value) => {
    signal.stopped = true;
    signal.wake?.();
    return stop(value);
  };
  return stream;
}

async function* jobStream(
  services: Feed,
  caller: Caller,
  ctId: string | null,
  signal: { stopped: boolean; wake: (() => void) | null },
): AsyncGenerator<JobView> {
  const queue: Array<JobEvent | 'resync'> = [];
  const push = (item: JobEvent | 'resync') => {
    queue.push(item);
    signal.wake?.();
  };
  const unsubscribe = services.events!.subscribe(
    (event) => {
      // One job: as its REST resource shows it (staff see any); all jobs: the caller's own.
      if (ctId ? event.ctId === ctId && jobVisibleTo(caller, event.userId) : event.userId === caller.user.id) push(event);
    },
    () => push('resync'),
  );
  const final = (job: JobView) => ctId !== null && (job.status === 'completed' || job.status === 'failed');
  const since = services.clock.now();
  const changedSinceStart = async () =>
    (await services.jobs.listFor(caller, {}))
      .filter((job) => job.updatedAt >= since)
      .reverse()
      .map((job) => job.ctId);
  try {
    if (ctId) {
      const job = await services.jobs.view(await services.jobs.getFor(caller, ctId));
      yield job;
      if (final(job)) return;
    }
    let lastSeen = new Map<string, string>();
    for (;;) {
      if (!queue.length) await new Promise<void>((resolve) => (signal.wake = resolve));
      signal.wake = null;
      if (signal.stopped) return;
      const item = queue.shift()!;
      const targets = item === 'resync' ? (ctId ? [ctId] : await changedSinceStart()) : [item.ctId];
      for (const target of targets) {
        const job = await services.jobs.view(await services.jobs.getFor(caller, target));
        const signature = `${job.status}|${job.step}|${job.updated.toISOString()}`;
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
