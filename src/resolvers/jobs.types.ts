import { GraphQLJSONObject, GraphQLSafeInt } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ObjectType } from 'type-graphql';
import type { JobView } from '../presenters/job.presenter';

@ObjectType('Job', { description: 'One resource for long work: assemble, upload, generate_package, generate_app.' })
export class JobType implements JobView {
  @Field() ctId!: string;
  @Field() url!: string;
  @Field(() => String) kind!: JobView['kind'];
  @Field(() => String, { description: 'queued, running, completed or failed' }) status!: JobView['status'];
  @Field(() => String, { nullable: true }) step!: string | null;
  @Field(() => GraphQLSafeInt, { description: 'Charged so far, read from the ledger.' }) costCredits!: number;
  @Field(() => GraphQLJSONObject, { nullable: true }) result!: Record<string, unknown> | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String, { nullable: true }) dataSourceCtId!: string | null;
  @Field(() => String, { nullable: true }) dmCtId!: string | null;
  @Field(() => String, { nullable: true }) taskId!: string | null;
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime) updated!: Date;
}
