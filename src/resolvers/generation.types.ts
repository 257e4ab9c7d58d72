import { createUnionType, Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { GenerationType } from './generation-result.types';
import { JobType, type JobNode } from './jobs.types';

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
  @Field(() => JobType) job!: JobNode;
  @Field(() => Int, { description: 'What the upload will be charged: its header columns × 100 + 500 credits (held now).' })
  estimatedCostCredits!: number;
  @Field(() => Int, { description: 'The header row’s columns: one component minted per column.' }) columns!: number;
}
