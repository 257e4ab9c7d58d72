import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import type { ContextualComponent } from '../packages/contextual-slots';
import type { Skeleton, SkeletonField } from '../packages/skeleton';
import type { SchemaVersionsView, SchemaVersionView } from '../presenters/schema-hosting.presenter';
import { ContextualSlotEnum } from './enums';

/** The GraphQL shapes of the public artefact reads: skeletons with their field mapping, schema versions and the
 * contextual library. */

@ObjectType('SkeletonField', { description: 'One placeholder of a skeleton: the component value it stands for.' })
export class SkeletonFieldType implements SkeletonField {
  @Field() placeholder!: string;
  @Field() ctId!: string;
  @Field() elementName!: string;
  @Field({ description: 'The component type (XdCount, Party, …), or DM for instance-level values.' }) type!: string;
  @Field({ description: 'The XML Schema datatype a value must have (xsd:integer, …).' }) datatype!: string;
  @Field() label!: string;
  @Field() required!: boolean;
}

@ObjectType('FieldMapping')
export class FieldMappingType {
  @Field() ctId!: string;
  @Field(() => [SkeletonFieldType]) fields!: SkeletonFieldType[];
}

@ObjectType('ModelSkeleton', { description: 'An instance of the model with a __PLACEHOLDER_<ct_id>__ token in each value position.' })
export class ModelSkeletonType implements Skeleton {
  @Field() xml!: string;
  @Field(() => FieldMappingType) fieldMapping!: FieldMappingType;
}

@ObjectType('SchemaVersion')
export class SchemaVersionType implements SchemaVersionView {
  @Field() sha256!: string;
  @Field(() => Int) size!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) archivedAt!: Date | null;
  @Field() current!: boolean;
  @Field() url!: string;
}

@ObjectType('SchemaVersions', { description: 'Every published schema of a model; only the current one is not archived.' })
export class SchemaVersionsType implements SchemaVersionsView {
  @Field() dmCtId!: string;
  @Field() currentSha256!: string;
  @Field() schemaUrl!: string;
  @Field(() => [SchemaVersionType]) versions!: SchemaVersionType[];
}

@ObjectType('ContextualComponent', { description: 'A component of the contextual library, for one slot of a data model.' })
export class ContextualComponentType implements ContextualComponent {
  @Field(() => ContextualSlotEnum) slot!: ContextualComponent['slot'];
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field() componentType!: string;
}
