import type { Services } from '../container';
import type { JobEventRow } from '../db/queries/job-events.sql';
import type { Job } from '../entities/job.entity';
import { jobFields, type JobFields } from '../presenters/job.presenter';
import type { Caller } from '../services/auth.service';
import { jobVisibleTo, type JobEvent } from '../services/jobs.service';
import { encodeJobCursor, type JobCursor } from './job-cursor';

type Feed = Pick<Services, 'events' | 'jobs' | 'links' | 'clock' | 'ledger'>;
type Step = Pick<JobEventRow, 'seq' | 'status' | 'step'> & { at: Date | string };

/** One event of a job as subscribers see it: the job with the status and step of event `seq`. Its result and
 * error are shown from its final event on (before that, they belong to a later state). In myJobs, `cursor` is
 * where the stream stands once this item is received. */
export type JobStep = JobFields & { id: number; seq: number; costCredits: number; cursor?: string };

/** What to stream: one job (from its current event, or from the event after `afterSeq`), or all of yours (from
 * now, or from where a cursor says an earlier stream stood). */
export type JobWatch = { ctId: string; afterSeq: number | null } | { ctId: null; after: JobCursor | null };

/** How long after it began a transaction that records a job event may still commit and be announced, and how far
 * apart the nodes' clocks may be: a cursor vouches only for the events older than this before the stream was last
 * idle, and lists the jobs it showed events of since then. */
const RESUME_MARGIN_MS = 60_000;

const isFinal = (status: string) => status === 'completed' || status === 'failed';

/** How long a job read for one event stays shared after it answered (subscribers of one user receive an event
 * within moments of each other). */
const SHARED_READ_MS = 5_000;
const sharedReads = new WeakMap<object, Map<string, Promise<{ job: Job; costCredits: number }>>>();

/** The job and its cost as of event `seq`: read once (the row and the ledger) for every subscriber that received
 * the event, however many sockets and keys its user has open; the feed fans out the view, not the query. Every
 * such subscriber may see the job (the event passed its filter), so the first one's read serves all. */
function jobAt(services: Feed, caller: Caller, ctId: string, seq: number): Promise<{ job: Job; costCredits: number }> {
  let reads = sharedReads.get(services.jobs);
  if (!reads) sharedReads.set(services.jobs, (reads = new Map<string, Promise<{ job: Job; costCredits: number }>>()));
  const key = `${ctId}@${seq}`;
  const known = reads.get(key);
  if (known) return known;
  const read = (async () => {
    const job = await services.jobs.getFor(caller, ctId);
    const costs = await services.ledger.jobCosts([job.id]);
    return { job, costCredits: costs.get(job.id) ?? 0 };
  })();
  reads.set(key, read);
  const forget = () => {
    if (reads.get(key) === read) reads.delete(key);
  };
  read.then(
    () => setTimeout(forget, SHARED_READ_MS).unref(),
    () => forget(),
  );
  return read;
}

type Positions = Awaited<ReturnType<Feed['jobs']['positionsSince']>>;
type StartRead = { since: number; read: Promise<Positions> };
const startReads = new WeakMap<object, Map<number, StartRead>>();

/** Where a user's jobs stand (positionsSince), read once for every new stream of that user that starts in the same
 * turn of the event loop: one user opening a thousand myJobs subscriptions at once costs one query, not a thousand
 * connections of the pool. The read starts in the next turn, after every stream that joined it already listens, so
 * no event falls between a stream's listener and its read; it covers the earliest `since` of those streams (more
 * jobs known than one stream needs is harmless: each is shown from its last event). */
function positionsFrom(services: Feed, userId: number, since: number): Promise<Positions> {
  let reads = startReads.get(services.jobs);
  if (!reads) startReads.set(services.jobs, (reads = new Map<number, StartRead>()));
  const forming = reads.get(userId);
  if (forming) {
    forming.since = Math.min(forming.since, since);
    return forming.read;
  }
  const batch = { since, read: null as unknown as Promise<Positions> };
  batch.read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    reads.delete(userId);
    return services.jobs.positionsSince(userId, new Date(batch.since));
  });
  reads.set(userId, batch);
  return batch.read;
}

/** Streams the caller's job events (migration 0016), each once and in order per job: every status and step, even
 * those a fast job passes in the same instant. The event NOTIFY carries the next number, so a subscriber reads the
 * event log only when numbers jump (a lost notification) and after the database connection came back. Ends after
 * a final event when one job is watched; all your jobs' items carry a cursor to resume from. `return()` (the socket closed, its credential ended) ends it at once,
 * even while it waits for an event, so it stops listening then and not at the next event. */
export function watchJobs(services: Feed, caller: Caller, watch: JobWatch): AsyncGenerator<JobStep> {
  const signal = { stopped: false, wake: null as (() => void) | null };
  const stream = jobStream(services, caller, watch, signal);
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
  watch: JobWatch,
  signal: { stopped: boolean; wake: (() => void) | null },
): AsyncGenerator<JobStep> {
  const queue: Array<JobEvent | 'resync'> = [];
  const push = (item: JobEvent | 'resync') => {
    queue.push(item);
    signal.wake?.();
  };
  const ctId = watch.ctId;
  // Listening starts before the first read, so no event falls between the two.
  const unsubscribe = services.events!.subscribe(
    (event) => {
      // One job: as its REST resource shows it (staff see any); all jobs: the caller's own.
      if (ctId ? event.ctId === ctId && jobVisibleTo(caller, event.userId) : event.userId === caller.user.id) push(event);
    },
    () => push('resync'),
  );
  const shown = new Map<string, number>();
  // When each job's last shown event happened, and when the stream was last idle with nothing left to show.
  const shownAt = new Map<string, number>();
  let idleAt = services.clock.now().getTime();
  const cursor = () => {
    const since = idleAt - RESUME_MARGIN_MS;
    return encodeJobCursor({ since, seqs: new Map([...shown].filter(([target]) => (shownAt.get(target) ?? -Infinity) >= since)) });
  };
  const stepOf = (job: Job, costCredits: number, event: Step): JobStep => {
    const fields = jobFields(job, services.links);
    const final = isFinal(event.status);
    return {
      ...fields,
      costCredits,
      id: job.id,
      seq: event.seq,
      status: event.status,
      step: event.step,
      updated: new Date(event.at),
      result: final ? fields.result : null,
      error: final ? fields.error : null,
    };
  };
  /** The events of a job after the last one shown, from the log. */
  const catchUp = async (target: string): Promise<JobStep[]> => {
    const events = await services.jobs.eventsAfter(target, shown.get(target) ?? 0);
    if (!events.length) return [];
    const { job, costCredits } = await jobAt(services, caller, target, events[events.length - 1].seq);
    return events.map((event) => stepOf(job, costCredits, event));
  };
  try {
    let pending: JobStep[] = [];
    if (watch.ctId !== null) {
      const job = await services.jobs.getFor(caller, watch.ctId);
      const last = (await services.jobs.lastEventSeqOf([job.ctId])).get(job.ctId) ?? 0;
      shown.set(watch.ctId, watch.afterSeq ?? Math.max(0, last - 1));
      pending = await catchUp(watch.ctId);
    } else {
      pending = await resume(watch.after);
    }
    for (;;) {
      for (const step of pending) {
        if (step.seq <= (shown.get(step.ctId) ?? 0)) continue;
        shown.set(step.ctId, step.seq);
        shownAt.set(step.ctId, step.updated.getTime());
        yield ctId ? step : { ...step, cursor: cursor() };
        if (ctId && isFinal(step.status)) return;
      }
      if (!queue.length) {
        idleAt = services.clock.now().getTime();
        await new Promise<void>((resolve) => (signal.wake = resolve));
      }
      signal.wake = null;
      if (signal.stopped) return;
      pending = await stepsFor(queue.shift()!);
    }
  } finally {
    unsubscribe();
  }

  /** All your jobs: each from its last event (a new stream), or from where `after` left it: after the seq it
   * lists, else from its first event since the cursor's `since`. Returns the events to replay, job by job. */
  async function resume(after: JobCursor | null): Promise<JobStep[]> {
    const since = after?.since ?? idleAt - RESUME_MARGIN_MS;
    if (after) idleAt = after.since + RESUME_MARGIN_MS;
    const behind: string[] = [];
    // A new stream joins its user's other new streams' read; a resumed one reads from its own cursor.
    const positions = after
      ? await services.jobs.positionsSince(caller.user.id, new Date(since))
      : await positionsFrom(services, caller.user.id, since);
    for (const job of positions) {
      const missed = after ? (after.seqs.get(job.ct_id) ?? (job.first_seq_since ?? job.last_seq + 1) - 1) : job.last_seq;
      const from = Math.min(missed, job.last_seq);
      shown.set(job.ct_id, from);
      shownAt.set(job.ct_id, from === job.last_seq ? new Date(job.last_at).getTime() : since);
      if (from < job.last_seq) behind.push(job.ct_id);
    }
    const steps: JobStep[] = [];
    for (const target of behind) steps.push(...(await catchUp(target)));
    return steps;
  }

  async function stepsFor(item: JobEvent | 'resync'): Promise<JobStep[]> {
    if (item === 'resync') {
      // Changes made while the listener was away were not announced: read each job whose log moved on.
      const moved = ctId
        ? [ctId]
        : [...(await services.jobs.lastEventSeqs(caller.user.id))].filter(([t, seq]) => seq > (shown.get(t) ?? 0)).map(([t]) => t);
      const steps: JobStep[] = [];
      for (const target of moved) steps.push(...(await catchUp(target)));
      return steps;
    }
    const known = shown.get(item.ctId) ?? 0;
    if (item.seq <= known) return [];
    if (item.seq > known + 1) return catchUp(item.ctId);
    const { job, costCredits } = await jobAt(services, caller, item.ctId, item.seq);
    return [stepOf(job, costCredits, item)];
  }
}
