import type { Services } from '../container';
import type { QueueName, QueuePayloads } from '../db/queues';
import { transactionRetried } from '../db/transaction';
import type { Job, JobKind, JobResult } from '../entities/job.entity';
import { isDatabaseUnavailable } from '../lib/errors';
import { hideServerPaths } from '../lib/server-paths';
import type { Attempt, QueueOptions } from './queue';

/** How a job task reports progress to the runner, which owns the job row's state. */
interface JobProgress<K extends JobKind> {
  /** Moves the running job to `name` (with its model, once there is one), announced to subscribers. */
  step(name: string, patch?: { dmCtId: string }): Promise<void>;
  /** The result to keep on the job if it fails from here on (e.g. the links of a model already built). */
  keepOnFailure(result: JobResult<K>): void;
}

/** How a job task ended when it did not throw: completed with its result, or failed with `error` and a result. */
interface JobOutcome<K extends JobKind> {
  result: JobResult<K>;
  error?: string;
}

/** What a queue does with a failed attempt: which errors are retried (pg-boss retries them up to the queue's
 * retryLimit, after its retryDelay: the task's `queueOptions`, written to the queue when a process starts). The
 * last attempt, or an error that is not retried, gives up: the task's `giveUp` runs and the message is settled. */
interface QueuePolicy {
  retried(error: unknown): boolean;
}

/**
 * A job kind's declaration (outline's BaseTask, graphile-worker's typed Task): its queues and their options, its
 * typed request and result (declared beside it with `declare module '../entities/job.entity'`), the step it starts
 * at, its work, its queue policy and what giving up does (`giveUp`: the hold its admission placed goes back).
 */
export interface JobTask<K extends JobKind = JobKind> {
  kinds: readonly K[];
  /** The options of each of its kinds' queues. */
  queueOptions: QueueOptions;
  firstStep: string;
  policy: QueuePolicy;
  run(services: Services, job: Job<K>, progress: JobProgress<K>): Promise<JobOutcome<K>>;
  giveUp(services: Services, job: Job<K>, reason: string): Promise<void>;
}

/** A queue without a job row (rdf_sync): its payload, its options, its work and what giving up does, run by the
 * same runner with the same failure policy. */
export interface QueueTask<Q extends QueueName> {
  queue: Q;
  queueOptions: QueueOptions;
  policy: QueuePolicy;
  run(services: Services, payload: QueuePayloads[Q]): Promise<void>;
  giveUp(services: Services, payload: QueuePayloads[Q], reason: string): Promise<void>;
}

/** Errors that say nothing about the job, only that a part it needs cannot be reached right now. */
export const infrastructureErrorsRetried: QueuePolicy = { retried: (error) => isDatabaseUnavailable(error) };

/** A recorded error names no server path: clients read it. */
const messageOf = (error: unknown) => hideServerPaths(error instanceof Error ? error.message : String(error));

/** The give-up hook of a charged job: a job given up never captures, so what its admission held goes back to the
 * wallet and the key (the money module's release). */
export const releaseHold = (services: Services, job: Job, reason: string) =>
  transactionRetried(services.db, (tx) => services.ledger.release(job.id, `job failed: ${reason}`, tx)).then(() => undefined);

/** The failure policy, for every queue: a failure its task retries is rethrown while attempts remain (pg-boss
 * retries it); any other, or one on the last attempt, gives up: `giveUp` (a job is marked failed first, then its task's hook runs). */
async function attempt(
  services: Services,
  policy: QueuePolicy,
  { retryCount, retryLimit }: Attempt,
  log: Record<string, unknown>,
  work: () => Promise<void>,
  giveUp: (reason: string) => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (policy.retried(error) && retryCount < retryLimit) {
      services.logger.warn({ ...log, err: error }, 'attempt interrupted: retried');
      throw error;
    }
    services.logger.warn({ ...log, err: error }, 'given up');
    await giveUp(messageOf(error));
  }
}

/** Runs one attempt of a queue message without a job row. */
export function runQueueTask<Q extends QueueName>(services: Services, task: QueueTask<Q>, payload: QueuePayloads[Q], at: Attempt): Promise<void> {
  const log = { queue: task.queue, ...payload, attempt: at.retryCount + 1 };
  return attempt(
    services,
    task.policy,
    at,
    log,
    () => task.run(services, payload),
    (reason) => task.giveUp(services, payload, reason),
  );
}

/** Runs one attempt of a job: loads its row (a final job is left as it is), starts it, lets the task report its
 * steps, and records how it ended. Given up, the job is failed (with the result its task kept) before the task's
 * `giveUp` runs. */
export async function runJob<K extends JobKind>(services: Services, task: JobTask<K>, jobCtId: string, at: Attempt): Promise<void> {
  const { jobs, logger } = services;
  const delayMs = services.settings.pipelineStepDelayMs;
  const pause = () => (delayMs ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve());
  const read = await jobs.byCtId(jobCtId);
  if (!(task.kinds as readonly JobKind[]).includes(read.kind))
    throw new Error(`the ${read.kind} job ${read.ctId} reached the task of ${task.kinds.join(', ')}`);
  // Of one of the task's kinds, so of its request and result.
  const job = read as Job<K>;
  const log = { jobId: job.ctId, kind: job.kind, attempt: at.retryCount + 1 };
  if (job.status === 'completed' || job.status === 'failed') {
    logger.info({ ...log, status: job.status }, 'job already final: skipped');
    return;
  }
  let keptResult: JobResult<K> | null = null;
  const progress: JobProgress<K> = {
    step: async (name, patch) => {
      await jobs.update(job.id, { status: 'running', step: name, ...patch });
      logger.info({ ...log, step: name }, 'job step');
      await pause();
    },
    keepOnFailure: (result) => (keptResult = result),
  };
  const work = async () => {
    await jobs.start(job.id, task.firstStep);
    logger.info({ ...log, step: task.firstStep }, 'job started');
    await pause();
    const outcome = await task.run(services, job, progress);
    const status = outcome.error === undefined ? 'completed' : 'failed';
    await jobs.update(job.id, {
      status,
      step: 'done',
      result: outcome.result,
      ...(outcome.error === undefined ? {} : { error: hideServerPaths(outcome.error) }),
    });
    logger.info({ ...log, status, ...(outcome.error === undefined ? {} : { error: outcome.error }) }, 'job finished');
  };
  await attempt(services, task.policy, at, log, work, async (reason) => {
    await jobs.update(job.id, { status: 'failed', error: reason, result: keptResult });
    await task.giveUp(services, job, reason);
  });
}
