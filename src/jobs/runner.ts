import type { Services } from '../container';
import type { Job, JobKind } from '../entities/job.entity';
import { isDatabaseUnavailable } from '../lib/errors';
import { hideServerPaths } from '../lib/server-paths';
import type { JobOutcome, JobProgress } from '../services/jobs.service';
import type { Attempt } from './queue';

/** A job kind's work: the step it starts at and what it does from there (the services run the steps). */
export interface JobTask {
  kinds: readonly JobKind[];
  firstStep: string;
  run(services: Services, job: Job, progress: JobProgress): Promise<JobOutcome>;
}

/** Errors that say nothing about the job, only that a part it needs cannot be reached right now. */
const isInfrastructureError = (error: unknown) => isDatabaseUnavailable(error);

/** A recorded job error names no server path: clients read it. */
const messageOf = (error: unknown) => hideServerPaths(error instanceof Error ? error.message : String(error));

/** Runs one attempt of a job: loads its row (a final job is left as it is), starts it, lets the task report its
 * steps, and records how it ended. The failure policy lives here alone: an infrastructure error is rethrown so
 * pg-boss retries the attempt, and only the last attempt marks the job failed; any other error (a domain error,
 * a build or validation error) fails the job for good at once. */
export async function runJob(services: Services, task: JobTask, jobCtId: string, attempt: Attempt): Promise<void> {
  const { jobs, logger } = services;
  const delayMs = services.settings.pipelineStepDelayMs;
  const pause = () => (delayMs ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve());
  const job = await jobs.byCtId(jobCtId);
  const log = { jobId: job.ctId, kind: job.kind, attempt: attempt.retryCount + 1 };
  if (job.status === 'completed' || job.status === 'failed') {
    logger.info({ ...log, status: job.status }, 'job already final: skipped');
    return;
  }
  let keptResult: Record<string, unknown> | null = null;
  const progress: JobProgress = {
    step: async (name, patch) => {
      await jobs.update(job.id, { status: 'running', step: name, ...patch });
      logger.info({ ...log, step: name }, 'job step');
      await pause();
    },
    keepOnFailure: (result) => (keptResult = result),
  };
  try {
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
  } catch (error) {
    const retried = isInfrastructureError(error) && attempt.retryCount < attempt.retryLimit;
    if (retried) {
      logger.warn({ ...log, err: error }, 'job attempt interrupted: retried');
      throw error;
    }
    logger.warn({ ...log, err: error }, 'job failed');
    await jobs.update(job.id, { status: 'failed', error: messageOf(error), result: keptResult });
    // A job given up never captures: what its admission held goes back to the wallet and the key.
    await services.db.transaction((m) => services.ledger.release(job.id, `job failed: ${messageOf(error)}`, m));
  }
}
