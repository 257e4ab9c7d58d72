import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

/** Every kind of job: the TS type, the job queues (src/db/queues.ts) and the jobs table's CHECK (a test compares them). */
export const JOB_KINDS = ['assemble', 'upload', 'generate_package', 'generate_app'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

@Entity('jobs')
export class Job {
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
  request!: Record<string, unknown>;

  @Column('jsonb', { nullable: true })
  result!: Record<string, unknown> | null;

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
