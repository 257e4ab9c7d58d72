import { createUnionType, Field, ObjectType } from 'type-graphql';
import { APP_PROFILES, type AppProfile } from '../packages/app-compose';
import type { JobFields } from '../presenters/job.presenter';
import { GenerationType } from './generation-result.types';

/** `Job.result` in GraphQL: one typed object per job kind, camelCase, read from the result the job keeps in the
 * REST (snake_case) shape, which REST answers unchanged. */

@ObjectType('AssembleJobResult', { description: 'The model an assemble job built; published and generated as it asked.' })
export class AssembleJobResultType {
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
export class UploadColumnType {
  @Field() label!: string;
  @Field() dataType!: string;
}

@ObjectType('UploadJobResult', { description: 'The draft model an upload job proposed from its CSV.' })
export class UploadJobResultType {
  @Field() dmCtId!: string;
  @Field() modelUrl!: string;
  @Field() catalogUrl!: string;
  @Field(() => String, { nullable: true }) packageUrl!: string | null;
  @Field() published!: boolean;
  @Field() generated!: boolean;
  @Field(() => [UploadColumnType]) columns!: UploadColumnType[];
}

export const JobResult = createUnionType({
  name: 'JobResult',
  description: 'What a job produced: AssembleJobResult (assemble), UploadJobResult (upload), Generation (generate_package, generate_app).',
  types: () => [AssembleJobResultType, UploadJobResultType, GenerationType] as const,
  resolveType: (value) =>
    value instanceof AssembleJobResultType ? AssembleJobResultType : value instanceof UploadJobResultType ? UploadJobResultType : GenerationType,
});

type Raw = Record<string, unknown>;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
const profile = (value: unknown): AppProfile | null => APP_PROFILES.find((p) => p === value) ?? null;

function modelLinks(raw: Raw) {
  return {
    dmCtId: text(raw.dm_ct_id)!,
    modelUrl: text(raw.model_url) ?? '',
    catalogUrl: text(raw.catalog_url) ?? '',
    packageUrl: text(raw.package_url),
  };
}

/** The typed result of a job, or null when it has none (yet). */
export function jobResultOf(job: Pick<JobFields, 'kind' | 'result'>): AssembleJobResultType | UploadJobResultType | GenerationType | null {
  const raw = job.result;
  if (!raw || text(raw.dm_ct_id) === null) return null;
  switch (job.kind) {
    case 'assemble':
      return Object.assign(new AssembleJobResultType(), {
        ...modelLinks(raw),
        published: flag(raw.published) ?? false,
        generated: flag(raw.generated) ?? false,
        finalizeError: text(raw.finalize_error),
      });
    case 'upload': {
      const columns = Array.isArray(raw.columns) ? (raw.columns as Raw[]) : [];
      return Object.assign(new UploadJobResultType(), {
        ...modelLinks(raw),
        published: flag(raw.published) ?? false,
        generated: flag(raw.generated) ?? false,
        columns: columns.map((c) => ({ label: text(c.label) ?? '', dataType: text(c.data_type) ?? '' })),
      });
    }
    case 'generate_package':
    case 'generate_app':
      return Object.assign(new GenerationType(), {
        ...modelLinks(raw),
        profile: profile(raw.profile),
        appName: text(raw.app_name),
        appUrl: text(raw.app_url),
      });
  }
}
