import { createUnionType, Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import type { GenerationView } from '../presenters/generation.presenter';
import { JobType } from './jobs.types';

@ObjectType('Generation', { description: 'A package (and, for generateApp, an application) generated inside the request.' })
export class GenerationType implements GenerationView {
  @Field() dmCtId!: string;
  @Field() modelUrl!: string;
  @Field() catalogUrl!: string;
  @Field(() => String, { nullable: true }) packageUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'os or enterprise (generateApp only).' }) profile!: GenerationView['profile'];
  @Field(() => String, { nullable: true }) appName!: string | null;
  @Field(() => String, { nullable: true }) appUrl!: string | null;
}

export const GenerateResult = createUnionType({
  name: 'GenerateResult',
  description: 'The generation done inside the request, or its job (async: true).',
  types: () => [GenerationType, JobType] as const,
  resolveType: (value) => ('kind' in value ? JobType : GenerationType),
});

@ObjectType('DataSource', { description: 'An uploaded source file (CSV).' })
export class DataSourceType {
  @Field() ctId!: string;
  @Field() filename!: string;
  @Field(() => Int, { description: 'Bytes.' }) size!: number;
  @Field(() => GraphQLISODateTime) created!: Date;
}

@ObjectType('DataSourceUpload', { description: 'The stored file and the upload job that proposes a draft model from it.' })
export class DataSourceUploadType {
  @Field(() => DataSourceType) dataSource!: DataSourceType;
  @Field(() => JobType) job!: JobType;
}
