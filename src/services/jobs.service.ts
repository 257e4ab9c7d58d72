import type { DataSource, EntityManager } from 'typeorm';
import { newId } from '../lib/ids';
import { transactionDb } from '../db/pg-boss-adapter';
import { transactionRetried } from '../db/transaction';
import { countJobAttempt, jobModelTitle, lostJobs, setJobTask, updateJob } from '../db/queries/jobs.sql';
import { notify } from '../db/queries/queue.sql';
import {
  jobEventsAfter,
  jobPositionsOf,
  lastEventSeqOf,
  lastJobEventSeqs,
  recordJobEvent,
  type JobEventRow,
  type JobPositionRow,
} from '../db/queries/job-events.sql';
import { query, queryOne } from '../db/sql';
import type { QueueSender } from '../db/queues';
import { asJob, Job, type JobKind, type JobRequest, type JobResult, type JobStatus } from '../entities/job.entity';
import { notFound } from '../lib/errors';
import type { Links } from '../lib/links';
import type { JobFilters } from '../parsers/jobs.parser';
import { artifactUrls } from '../presenters/catalog.presenter';
import { jobView, type JobView } from '../presenters/job.presenter';
import type { TaskView } from '../presenters/task.presenter';
import type { Caller } from './auth.service';
import type { Clock } from './clock';
import type { LedgerService } from '../money';

/** Postgres channel on which every job change is announced; gateways LISTEN and fan out to subscribers. */
export const JOB_CHANNEL = 'sdc_job_events';

/** A status or step a job entered: `seq` numbers them per job (1, 2, …), as the job_events table keeps them. */
export interface JobEvent {
  ctId: string;
  userId: number;
  seq: number;
  status: JobStatus;
  step: string | null;
  at: string;
}

/** A change of a job of kind K (any kind by default): its result is of its kind. */
export interface JobPatch<K extends JobKind = JobKind> {
  status?: JobStatus;
  step?: string | null;
  result?: JobResult<K> | null;
  error?: string | null;
  dmCtId?: string | null;
}

/** A job is its owner's, and staff see any; to anyone else it does not exist. */
export const jobVisibleTo = (caller: Caller, ownerId: number) => ownerId === caller.user.id || caller.user.isStaff;

const MAX_LISTED_JOBS = 100;

export class JobsService {
  constructor(
    private readonly db: DataSource,
    private readonly queue: QueueSender,
    private readonly ledger: LedgerService,
    private readonly links: Links,
    private readonly clock: Clock,
  ) {}

  /** Views of `jobs`, their costs read from the ledger in one query. */
  async views(jobs: Job[]): Promise<JobView[]> {
    const costs = await this.ledger.jobCosts(jobs.map((job) => job.id));
    return jobs.map((job) => jobView(job, costs.get(job.id) ?? 0, this.links));
  }

  async view(job: Job): Promise<JobView> {
    return (await this.views([job]))[0];
  }

  /** A job just admitted (nothing captured yet, cost 0), without a read: the 202 of a charging request is built
   * from what its transaction returned, so no read after its commit can fail it. */
  admittedView(job: Job): JobView {
    return jobView(job, 0, this.links);
  }

  /** Writes the job row and its queue message in the caller's transaction: neither exists without the other. */
  async enqueue<K extends JobKind>(
    manager: EntityManager,
    input: {
      kind: K;
      userId: number;
      apiKeyId: number | null;
      request: JobRequest<K>;
      dataSourceCtId?: string | null;
      dmCtId?: string | null;
    },
  ): Promise<Job<K>> {
    const ctId = newId();
    const now = this.clock.now();
    const job = await manager.save(
      manager.create(Job, {
        ctId,
        kind: input.kind,
        status: 'queued',
        step: null,
        userId: input.userId,
        apiKeyId: input.apiKeyId,
        request: input.request,
        result: null,
        error: null,
        dataSourceCtId: input.dataSourceCtId ?? null,
        dmCtId: input.dmCtId ?? null,
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      }),
    );
    const taskId = await this.queue.send(input.kind, { jobId: ctId }, transactionDb(manager));
    job.taskId = taskId;
    await query(manager, setJobTask(job.id, taskId));
    await this.notify(manager, job);
    return job as Job<K>;
  }

  async byCtId(ctId: string): Promise<Job> {
    const job = await this.db.manager.findOneBy(Job, { ctId });
    if (!job) throw notFound('Job');
    return asJob(job);
  }

  /** Owner or staff; anyone else gets 404, so job ids do not leak. */
  async getFor(caller: Caller, ctId: string): Promise<Job> {
    const job = typeof ctId === 'string' && ctId.length <= 64 ? await this.db.manager.findOneBy(Job, { ctId }) : null;
    if (!job || !jobVisibleTo(caller, job.userId)) throw notFound('Job');
    return asJob(job);
  }

  /** A job by its queue task id (what a 202 returns as `task_id`; the job's ct_id also works), owner or staff
   * only, with the title of its model and, once completed, the model's artefact links. */
  async taskFor(caller: Caller, taskId: string): Promise<TaskView> {
    const byTask = (owner: { userId: number } | object) =>
      this.db.manager.findOne(Job, {
        where: [
          { taskId, ...owner },
          { ctId: taskId, ...owner },
        ],
      });
    // The owner's lookup stays on the user index (jobs has none on task_id); only staff look further.
    const valid = typeof taskId === 'string' && taskId.length <= 64;
    const row = valid ? ((await byTask({ userId: caller.user.id })) ?? (caller.user.isStaff ? await byTask({}) : null)) : null;
    if (!row || !jobVisibleTo(caller, row.userId)) throw notFound('Task');
    const found = asJob(row);
    const view = await this.view(found);
    const model = found.dmCtId ? await queryOne(this.db, jobModelTitle(found.dmCtId)) : undefined;
    const artifacts = found.status === 'completed' && found.dmCtId ? artifactUrls(found.dmCtId, this.links) : null;
    return { job: view, title: model?.title ?? (found.kind === 'assemble' ? requestedTitle(found.request) : null), artifacts };
  }

  async listFor(caller: Caller, filters: JobFilters): Promise<Job[]> {
    const jobs = await this.db.manager.find(Job, {
      where: { userId: caller.user.id, kind: filters.kind, dataSourceCtId: filters.dataSource },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: MAX_LISTED_JOBS,
    });
    return jobs.map(asJob);
  }

  /** Applies a change and announces it, in a transaction of its own (the change is one unit of work: subscribers
   * see every step, in order). */
  update<K extends JobKind>(jobId: number, patch: JobPatch<K>): Promise<Job> {
    return transactionRetried(this.db, (manager) => this.write(manager, jobId, patch));
  }

  /** A worker takes the job: running at `step`, one more attempt, in a transaction of its own. */
  start(jobId: number, step: string): Promise<Job> {
    return transactionRetried(this.db, async (manager) => {
      await query(manager, countJobAttempt(jobId));
      return this.write(manager, jobId, { status: 'running', step });
    });
  }

  /** Jobs whose queue task has failed for good (its worker died on every attempt) are marked failed, so none
   * stays `running` past its expiry, and their money settled (hold released, captures refunded). Run periodically
   * by workers. */
  async failLostJobs(): Promise<number> {
    const lost = await query(this.db, lostJobs());
    for (const { id } of lost) {
      const error = 'The worker running this job stopped on every attempt.';
      // One transaction: the job fails with its hold released and what an attempt captured refunded.
      await transactionRetried(this.db, async (m) => {
        await this.write(m, Number(id), { status: 'failed', error });
        await this.ledger.settleFailedJob(Number(id), 'the job was lost: its worker stopped on every attempt', m);
      });
    }
    await this.ledger.releaseEndedJobHolds();
    return lost.length;
  }

  /** The events of a job after `afterSeq`, in order (a subscriber catching up). */
  async eventsAfter(ctId: string, afterSeq: number): Promise<JobEventRow[]> {
    return query(this.db, jobEventsAfter(ctId, afterSeq));
  }

  /** The last event number of each of a user's jobs, by ct_id. */
  async lastEventSeqs(userId: number): Promise<Map<string, number>> {
    return new Map((await query(this.db, lastJobEventSeqs(userId))).map((r) => [r.ct_id, r.seq]));
  }

  /** Each of a user's jobs with its last event and its first event at or after `since` (a myJobs stream resuming). */
  async positionsSince(userId: number, since: Date): Promise<JobPositionRow[]> {
    return query(this.db, jobPositionsOf(userId, since));
  }

  /** The last event number of each job (by ct_id) in one query; absent for a job without events. */
  async lastEventSeqOf(ctIds: string[]): Promise<Map<string, number>> {
    return new Map((await query(this.db, lastEventSeqOf(ctIds))).map((r) => [r.ct_id, r.seq]));
  }

  /** Applies `patch` in `manager`'s transaction and records it as the job's next event. */
  private async write(manager: EntityManager, jobId: number, patch: JobPatch): Promise<Job> {
    const { result, dmCtId, ...rest } = patch;
    const columns = { ...rest, dm_ct_id: dmCtId, result: result === undefined || result === null ? result : JSON.stringify(result) };
    if (!(await queryOne(manager, updateJob(jobId, this.clock.now(), columns)))) throw notFound('Job');
    const job = asJob(await manager.findOneByOrFail(Job, { id: jobId }));
    await this.notify(manager, job);
    return job;
  }

  /** Records a new status or step as the job's next event and announces it, inside the caller's transaction:
   * the event commits with the change, and NOTIFY delivers at commit, in commit order. */
  private async notify(manager: EntityManager, job: Pick<Job, 'id' | 'ctId' | 'userId'>): Promise<void> {
    const row = await queryOne(manager, recordJobEvent(job.id));
    if (!row) return;
    const event: JobEvent = { ctId: job.ctId, userId: job.userId, seq: row.seq, status: row.status, step: row.step, at: row.at.toISOString() };
    await query(manager, notify(JOB_CHANNEL, JSON.stringify(event)));
  }
}

/** The title an assembly job was asked for (the parsed request, or the raw body of older jobs). */
function requestedTitle(request: JobRequest<'assemble'>): string | null {
  const source = ('assembly' in request ? request.assembly : request.body) as { title?: unknown } | null | undefined;
  return typeof source?.title === 'string' ? source.title : null;
}
