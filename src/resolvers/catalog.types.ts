import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';

@ObjectType('CatalogComponent', { description: 'A reusable leaf: one SDC4 reference-model type with a label.' })
export class CatalogComponentType {
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field({ description: 'The reference-model type, e.g. XdString, XdCount.' }) componentType!: string;
  @Field() projectName!: string;
  @Field({ description: '@<project>:<label>' }) reuseRef!: string;
  @Field(() => String, { nullable: true }) units!: string | null;
  @Field({ description: 'draft, published or retired' }) status!: string;
  @Field(() => String, { nullable: true, description: 'The ct_id that replaces a retired entry.' }) successor!: string | null;
}

@ObjectType('CatalogComponentPage')
export class CatalogComponentPage {
  @Field(() => Int) count!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => [CatalogComponentType]) results!: CatalogComponentType[];
}

@ObjectType('CatalogCluster', { description: 'A reusable ordered group of components and clusters.' })
export class CatalogClusterType {
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field() projectName!: string;
  @Field() reuseRef!: string;
  @Field() status!: string;
  @Field(() => String, { nullable: true }) successor!: string | null;
  @Field(() => Int) childCount!: number;
}

@ObjectType('CatalogClusterPage')
export class CatalogClusterPage {
  @Field(() => Int) count!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => [CatalogClusterType]) results!: CatalogClusterType[];
}

@ObjectType('CatalogNode', { description: 'A place in a model tree: a cluster (type Cluster) or a component.' })
export class CatalogNodeType {
  @Field() type!: string;
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) units!: string | null;
  @Field(() => [CatalogNodeType]) children!: CatalogNodeType[];
}

@ObjectType('CatalogArtifacts')
export class CatalogArtifactsType {
  @Field() xsd!: string;
  @Field() ttl!: string;
  @Field() skeleton!: string;
  @Field() html!: string;
}

@ObjectType('CatalogModelSummary')
export class CatalogModelSummaryType {
  @Field() ctId!: string;
  @Field({ description: 'dm-<ct_id>' }) identifier!: string;
  @Field() title!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field() projectName!: string;
  @Field({ description: 'The catalog page of the model.' }) about!: string;
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime) updated!: Date;
}

@ObjectType('CatalogModel')
export class CatalogModelType extends CatalogModelSummaryType {
  @Field() published!: boolean;
  @Field() generated!: boolean;
  @Field(() => String, { nullable: true, description: 'The stored package ZIP, once generated.' }) packageUrl!: string | null;
  @Field(() => GraphQLJSONObject) contextual!: Record<string, unknown>;
  @Field(() => CatalogArtifactsType) artifacts!: CatalogArtifactsType;
  @Field(() => CatalogNodeType, { description: 'The root cluster; nest `children` as deep as you need.' }) root!: CatalogNodeType;
  @Field(() => GraphQLJSONObject, { description: 'The whole tree at any depth, as the REST `components[0]`.' }) tree!: Record<string, unknown>;
}

@ObjectType('CatalogProject')
export class CatalogProjectType {
  @Field() name!: string;
  @Field() isLibrary!: boolean;
  @Field(() => Int) components!: number;
  @Field(() => Int) clusters!: number;
  @Field(() => Int) dataModels!: number;
}

@ObjectType('CatalogIndex', { description: 'What the caller can see in the catalog.' })
export class CatalogIndexType {
  @Field(() => [String]) dataTypes!: string[];
  @Field(() => Int) components!: number;
  @Field(() => Int) clusters!: number;
  @Field(() => Int) dataModels!: number;
  @Field(() => [CatalogProjectType]) projects!: CatalogProjectType[];
}
