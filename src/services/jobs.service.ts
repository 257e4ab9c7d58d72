import type { DataSource, EntityManager } from 'typeorm';
import { newId } from '../lib/ids';
import { transactionDb } from '../db/pg-boss-adapter';
import {
  jobEventsAfter,
  jobPositionsOf,
  lastEventSeqOf,
  lastJobEventSeqs,
  recordJobEvent,
  type JobEventRow,
  type JobPositionRow,
} from '../db/queries/job-events.sql';
import { one, query, queryOne, rows } from '../db/sql';
import type { QueueSender } from '../db/queues';
import { Job, type JobKind, type JobStatus } from '../entities/job.entity';
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

export interface JobPatch {
  status?: JobStatus;
  step?: string | null;
  result?: Record<string, unknown> | null;
  error?: string | null;
  dmCtId?: string | null;
}

/** How a task reports progress to the runner (src/jobs/runner.ts), which owns the job row's state. */
export interface JobProgress {
  /** Moves the running job to `name` (with extra fields such as its model), announced to subscribers. */
  step(name: string, patch?: Pick<JobPatch, 'dmCtId'>): Promise<void>;
  /** The result to keep on the job if it fails from here on (e.g. the links of a model already built). */
  keepOnFailure(result: Record<string, unknown>): void;
}

/** How a task ended when it did not throw: completed with its result, or failed with `error` and a result. */
export interface JobOutcome {
  result: Record<string, unknown>;
  error?: string;
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
  async enqueue(
    manager: EntityManager,
    input: {
      kind: JobKind;
      userId: number;
      apiKeyId: number | null;
      request: Record<string, unknown>;
      dataSourceCtId?: string | null;
      dmCtId?: string | null;
    },
  ): Promise<Job> {
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
    await rows(manager, 'UPDATE jobs SET task_id = $2 WHERE id = $1', [job.id, taskId]);
    await this.notify(manager, job);
    return job;
  }

  async byCtId(ctId: string, manager: EntityManager = this.db.manager): Promise<Job> {
    const job = await manager.findOneBy(Job, { ctId });
    if (!job) throw notFound('Job');
    return job;
  }

  /** Owner or staff; anyone else gets 404, so job ids do not leak. */
  async getFor(caller: Caller, ctId: string): Promise<Job> {
    const job = typeof ctId === 'string' && ctId.length <= 64 ? await this.db.manager.findOneBy(Job, { ctId }) : null;
    if (!job || !jobVisibleTo(caller, job.userId)) throw notFound('Job');
    return job;
  }

  /** A job by its queue task id (what a 202 returns as `task_id`; the job's ct_id also works), owner or staff
   * only, with the title of its model and, once completed, the model's artefact links. */
  async taskFor(caller: Caller, taskId: string): Promise<TaskView> {
    const byTask = (ownerId?: number) => {
      const qb = this.db.manager.createQueryBuilder(Job, 'j').where('(j.task_id = :id OR j.ct_id = :id)', { id: taskId });
      return (ownerId === undefined ? qb : qb.andWhere('j.user_id = :ownerId', { ownerId })).getOne();
    };
    // The owner's lookup stays on the user index (jobs has none on task_id); only staff look further.
    const valid = typeof taskId === 'string' && taskId.length <= 64;
    const found = valid ? ((await byTask(caller.user.id)) ?? (caller.user.isStaff ? await byTask() : null)) : null;
    if (!found || !jobVisibleTo(caller, found.userId)) throw notFound('Task');
    const view = await this.view(found);
    const model = found.dmCtId ? await one<{ title: string }>(this.db, 'SELECT title FROM data_models WHERE ct_id = $1', [found.dmCtId]) : undefined;
    const artifacts = found.status === 'completed' && found.dmCtId ? artifactUrls(found.dmCtId, this.links) : null;
    return { job: view, title: model?.title ?? requestedTitle(found.request), artifacts };
  }

  async listFor(caller: Caller, filters: JobFilters): Promise<Job[]> {
    const qb = this.db.manager.createQueryBuilder(Job, 'j').where('j.user_id = :userId', { userId: caller.user.id });
    if (filters.kind !== undefined) qb.andWhere('j.kind = :kind', { kind: filters.kind });
    if (filters.dataSource !== undefined) qb.andWhere('j.data_source_ct_id = :ds', { ds: filters.dataSource });
    return qb.orderBy('j.created_at', 'DESC').addOrderBy('j.id', 'DESC').limit(MAX_LISTED_JOBS).getMany();
  }

  /** Applies a change and announces it in the same transaction (subscribers see every step, in order). */
  async update(jobId: number, patch: JobPatch, manager?: EntityManager): Promise<Job> {
    if (!manager) return this.db.transaction((m) => this.update(jobId, patch, m));
    const sets: string[] = ['updated_at = $2'];
    const values: unknown[] = [jobId, this.clock.now()];
    const column = { status: 'status', step: 'step', result: 'result', error: 'error', dmCtId: 'dm_ct_id' } as const;
    for (const [field, name] of Object.entries(column) as Array<[keyof JobPatch, string]>) {
      if (patch[field] === undefined) continue;
      values.push(field === 'result' && patch.result !== null ? JSON.stringify(patch.result) : patch[field]);
      sets.push(`${name} = $${values.length}`);
    }
    const row = await one<{ id: string }>(manager, `UPDATE jobs SET ${sets.join(', ')} WHERE id = $1 RETURNING id`, values);
    if (!row) throw notFound('Job');
    const job = await manager.findOneByOrFail(Job, { id: jobId });
    await this.notify(manager, job);
    return job;
  }

  /** A worker takes the job: running, one more attempt. */
  async start(jobId: number, step: string, manager?: EntityManager): Promise<Job> {
    if (!manager) return this.db.transaction((m) => this.start(jobId, step, m));
    await rows(manager, 'UPDATE jobs SET attempts = attempts + 1 WHERE id = $1', [jobId]);
    return this.update(jobId, { status: 'running', step }, manager);
  }

  /** Jobs whose queue task has failed for good (its worker died on every attempt) are marked failed, so none
   * stays `running` past its expiry, and their money settled (hold released, captures refunded). Run periodically
   * by workers. */
  async failLostJobs(): Promise<number> {
    const lost = await rows<{ id: string }>(
      this.db,
      `SELECT j.id FROM jobs j
        WHERE j.status IN ('queued', 'running') AND j.task_id IS NOT NULL
          AND (EXISTS (SELECT 1 FROM pgboss.job q WHERE q.id::text = j.task_id AND q.state IN ('failed', 'cancelled'))
               OR EXISTS (SELECT 1 FROM pgboss.archive a WHERE a.id::text = j.task_id AND a.state IN ('failed', 'cancelled')))`,
    );
    for (const { id } of lost) {
      const error = 'The worker running this job stopped on every attempt.';
      // One transaction: the job fails with its hold released and what an attempt captured refunded.
      await this.db.transaction(async (m) => {
        await this.update(Number(id), { status: 'failed', error }, m);
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

  /** Records a new status or step as the job's next event and announces it, inside the caller's transaction:
   * the event commits with the change, and NOTIFY delivers at commit, in commit order. */
  private async notify(manager: EntityManager, job: Job): Promise<void> {
    const row = await queryOne(manager, recordJobEvent(job.id));
    if (!row) return;
    const event: JobEvent = { ctId: job.ctId, userId: job.userId, seq: row.seq, status: row.status, step: row.step, at: row.at.toISOString() };
    await rows(manager, 'SELECT pg_notify($1, $2)', [JOB_CHANNEL, JSON.stringify(event)]);
  }
}

/** The title an assembly job was asked for (the parsed request, or the raw body of older jobs). */
function requestedTitle(request: Record<string, unknown>): string | null {
  const source = (request.assembly ?? request.body) as { title?: unknown } | undefined;
  return typeof source?.title === 'string' ? source.title : null;
}
