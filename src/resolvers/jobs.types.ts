import { Field, GraphQLISODateTime, ObjectType } from 'type-graphql';
import type { Job, JobKind, JobStatus } from '../entities/job.entity';
import type { Links } from '../lib/links';
import { jobFields, type JobFields } from '../presenters/job.presenter';
import { JobKindEnum, JobStatusEnum } from './enums';

/** A job as GraphQL resolves it: its own fields, its internal id (for the cost loader, never a field) and, in a
 * subscription, the number of the event it shows. `costCredits`, `result` and `seq` are field resolvers
 * (JobFieldsResolver), so the ledger is read only when asked, once per request for all jobs. */
export type JobNode = JobFields & { id: number; seq: number | null };

export const jobNode = (job: Job, links: Links): JobNode => ({ ...jobFields(job, links), id: job.id, seq: null });

@ObjectType('Job', { description: 'One resource for long work: assemble, upload, generate_package, generate_app.' })
export class JobType implements Omit<JobFields, 'result'> {
  @Field() ctId!: string;
  @Field() url!: string;
  @Field(() => JobKindEnum) kind!: JobKind;
  @Field(() => JobStatusEnum) status!: JobStatus;
  @Field(() => String, { nullable: true, description: 'parsing, parsed, agent_processing, modeling, finalizing, …, done' })
  step!: string | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String, { nullable: true }) dataSourceCtId!: string | null;
  @Field(() => String, { nullable: true }) dmCtId!: string | null;
  @Field(() => String, { nullable: true }) taskId!: string | null;
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime, { description: 'When the job entered this status and step.' }) updated!: Date;
  @Field(() => String, {
    nullable: true,
    description: 'In myJobs: where the stream stands once you have this item (pass it as `after` to resume); else null.',
  })
  cursor?: string;
}
