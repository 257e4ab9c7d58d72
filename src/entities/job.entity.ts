import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

/** Every kind of job: the TS type, the job queues (src/db/queues.ts) and the jobs table's CHECK (a test compares them). */
export const JOB_KINDS = ['assemble', 'upload', 'generate_package', 'generate_app'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * Each job kind's request and result (camelCase, stored as they are in jobs.request and jobs.result), declared by
 * the kind's task in src/jobs/<kind>.task.ts with `declare module '../entities/job.entity'`, as graphile-worker's
 * tasks declare their payloads: the task owns the shape, and this file (below every layer that reads a job) names
 * it without importing the task. REST renders them in snake_case (presenters/job.presenter.ts renderJobResult).
 * @public (exported for the tasks' `declare module`, which the dead-export check does not follow)
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the tasks' declarations
export interface JobPayloads {}

/** What a job of kind K was asked to do. (A kind whose task declared nothing fails the type check here.) */
export type JobRequest<K extends JobKind = JobKind> = JobPayloads[K]['request'];
/** What a job of kind K produced (or kept when it failed). */
export type JobResult<K extends JobKind = JobKind> = JobPayloads[K]['result'];

/** The jobs table's row. Code reads a job as `Job` (below), whose request and result are typed by its kind. */
@Entity('jobs')
class JobRow {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'ct_id' })
  ctId!: string;

  @Column('text')
  kind!: JobKind;

  @Column('text')
  status!: JobStatus;

  @Column('text', { nullable: true })
  step!: string | null;

  @Column('bigint', { name: 'user_id', transformer: bigintNumber })
  userId!: number;

  @Column('bigint', { name: 'api_key_id', nullable: true, transformer: bigintNumber })
  apiKeyId!: number | null;

  @Column('jsonb')
  request!: JobRequest;

  @Column('jsonb', { nullable: true })
  result!: JobResult | null;

  @Column('text', { nullable: true })
  error!: string | null;

  @Column('text', { name: 'data_source_ct_id', nullable: true })
  dataSourceCtId!: string | null;

  @Column('text', { name: 'dm_ct_id', nullable: true })
  dmCtId!: string | null;

  @Column('text', { name: 'task_id', nullable: true })
  taskId!: string | null;

  @Column('int')
  attempts!: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}

/** A job of kind K (any kind by default): a discriminated union by `kind`, so a `switch (job.kind)` narrows its
 * request and result. */
export type Job<K extends JobKind = JobKind> = Omit<JobRow, 'kind' | 'request' | 'result'> &
  { [P in K]: { kind: P; request: JobRequest<P>; result: JobResult<P> | null } }[K];

/** The entity TypeORM reads and writes (`manager.findOneBy(Job, …)`): the row, read back as a `Job` by `asJob`. */
export const Job = JobRow;

/** A row read from the jobs table as the job it is: its request and result were written by its kind's task through
 * the typed `enqueue` and `update` (services/jobs.service.ts), the only writers of those columns. */
export const asJob = (row: JobRow): Job => row as Job;
