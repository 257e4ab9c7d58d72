import { createUnionType, Field, GraphQLISODateTime, ObjectType } from 'type-graphql';
import type { Job, JobKind, JobStatus } from '../entities/job.entity';
import type { Links } from '../lib/links';
import { jobFields, resultOfKind, type JobFields } from '../presenters/job.presenter';
import { JobKindEnum, JobStatusEnum } from './enums';
import { GenerationType } from './generation-result.types';

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

@ObjectType('AssembleJobResult', { description: 'The model an assemble job built; published and generated as it asked.' })
class AssembleJobResultType {
  @Field() dmCtId!: string;
  @Field() modelUrl!: string;
  @Field() catalogUrl!: string;
  @Field(() => String, { nullable: true }) packageUrl!: string | null;
  @Field({ description: 'False too when the job failed before publishing.' }) published!: boolean;
  @Field() generated!: boolean;
  @Field(() => String, { nullable: true, description: 'Publishing or generating failed; the model and the charge stay.' })
  finalizeError!: string | null;
}

@ObjectType('UploadColumn', { description: 'A column of the uploaded CSV and the type proposed for it.' })
class UploadColumnType {
  @Field() label!: string;
  @Field() dataType!: string;
}

@ObjectType('UploadJobResult', { description: 'The draft model an upload job proposed from its CSV.' })
class UploadJobResultType {
  @Field() dmCtId!: string;
  @Field() modelUrl!: string;
  @Field() catalogUrl!: string;
  @Field(() => String, { nullable: true }) packageUrl!: string | null;
  @Field() published!: boolean;
  @Field() generated!: boolean;
  @Field(() => [UploadColumnType]) columns!: UploadColumnType[];
}

export const JobResultUnion = createUnionType({
  name: 'JobResult',
  description: 'What a job produced: AssembleJobResult (assemble), UploadJobResult (upload), Generation (generate_package, generate_app).',
  types: () => [AssembleJobResultType, UploadJobResultType, GenerationType] as const,
  resolveType: (value) =>
    value instanceof AssembleJobResultType ? AssembleJobResultType : value instanceof UploadJobResultType ? UploadJobResultType : GenerationType,
});

/** `Job.result`: the result the job keeps (camelCase, its task's declared type) as the GraphQL type of its kind;
 * null until it has one. An assembly that failed before finalizing shows published and generated false. */
export function jobResultNode(job: Pick<JobFields, 'kind' | 'result'>): AssembleJobResultType | UploadJobResultType | GenerationType | null {
  switch (job.kind) {
    case 'assemble': {
      const result = resultOfKind(job, job.kind);
      const finalized = {
        published: result?.published ?? false,
        generated: result?.generated ?? false,
        finalizeError: result?.finalizeError ?? null,
      };
      return result && Object.assign(new AssembleJobResultType(), result, finalized);
    }
    case 'upload': {
      const result = resultOfKind(job, job.kind);
      return result && Object.assign(new UploadJobResultType(), result);
    }
    case 'generate_package':
    case 'generate_app': {
      const result = resultOfKind(job, job.kind);
      return result && Object.assign(new GenerationType(), { profile: null, appName: null, appUrl: null }, result);
    }
  }
}
