import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import type { CatalogStatus } from '../entities/catalog-entry';
import type { RawListQuery } from '../parsers/catalog.parser';
import type {
  CatalogIndexView,
  ClusterView,
  ComponentView,
  ModelSummaryView,
  ModelView,
  NodeView,
  PageView,
  ProjectView,
} from '../presenters/catalog.presenter';
import { CatalogStatusEnum } from './enums';

/** The arguments of catalogClusters, fed to the catalog parser as they are; declared in the order the schema
 * has always printed them. */
@ArgsType()
export class CatalogClusterArgs implements RawListQuery {
  @Field(() => Int, { nullable: true }) pageSize?: number;
  @Field(() => Int, { nullable: true }) page?: number;
  @Field(() => String, { nullable: true }) search?: string;
  @Field(() => String, { nullable: true }) project?: string;
}

@ArgsType()
export class CatalogComponentArgs implements RawListQuery {
  @Field(() => Int, { nullable: true }) pageSize?: number;
  @Field(() => Int, { nullable: true }) page?: number;
  @Field(() => CatalogStatusEnum, { nullable: true }) status?: CatalogStatus;
  @Field(() => String, { nullable: true }) search?: string;
  @Field(() => String, { nullable: true }) project?: string;
  @Field(() => String, { nullable: true }) type?: string;
}

@ObjectType('CatalogComponent', { description: 'A reusable leaf: one SDC4 reference-model type with a label.' })
export class CatalogComponentType implements ComponentView {
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field({ description: 'The reference-model type, e.g. XdString, XdCount.' }) componentType!: string;
  @Field() projectName!: string;
  @Field({ description: '@<project>:<label>, and #<ct_id> for a draft' }) reuseRef!: string;
  @Field(() => String, { nullable: true }) units!: string | null;
  @Field(() => CatalogStatusEnum) status!: CatalogStatus;
  @Field(() => String, { nullable: true, description: 'The ct_id that replaces a retired entry.' }) successor!: string | null;
  @Field() projectCtId!: string;
  @Field({ description: 'Not a draft.' }) published!: boolean;
  @Field({ description: 'In a public project: readable without credentials once published.' }) isPublic!: boolean;
  @Field(() => [String]) predObj!: string[];
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime) updated!: Date;
}

@ObjectType('CatalogComponentPage')
export class CatalogComponentPage implements PageView<ComponentView> {
  @Field(() => Int) count!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => [CatalogComponentType]) results!: CatalogComponentType[];
}

@ObjectType('CatalogCluster', { description: 'A reusable ordered group of components and clusters.' })
export class CatalogClusterType implements ClusterView {
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field() projectName!: string;
  @Field() reuseRef!: string;
  @Field(() => CatalogStatusEnum) status!: CatalogStatus;
  @Field(() => String, { nullable: true }) successor!: string | null;
  @Field(() => Int) childCount!: number;
}

@ObjectType('CatalogClusterPage')
export class CatalogClusterPage implements PageView<ClusterView> {
  @Field(() => Int) count!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => [CatalogClusterType]) results!: CatalogClusterType[];
}

@ObjectType('CatalogNode', { description: 'A place in a model tree: a cluster (type Cluster) or a component.' })
export class CatalogNodeType implements NodeView {
  @Field() type!: string;
  @Field() ctId!: string;
  @Field() label!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: 'The ct_id of the enclosing cluster; null for the root.' }) parentCluster!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) units!: string | null;
  @Field({
    description: 'True for a cluster already shown earlier in this tree: it is expanded once, there, and here has no children.',
  })
  repeated!: boolean;
  @Field(() => [CatalogNodeType]) children!: CatalogNodeType[];
}

@ObjectType('CatalogArtifacts')
export class CatalogArtifactsType {
  @Field() xsd!: string;
  @Field() xml!: string;
  @Field() json!: string;
  @Field() jsonld!: string;
  @Field() html!: string;
  @Field() ttl!: string;
  @Field() shacl!: string;
  @Field() gql!: string;
  @Field() zip!: string;
  @Field() sha1!: string;
  @Field() skeleton!: string;
}

@ObjectType('CatalogModelSummary')
export class CatalogModelSummaryType implements ModelSummaryView {
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
export class CatalogModelType extends CatalogModelSummaryType implements ModelView {
  @Field() published!: boolean;
  @Field() generated!: boolean;
  @Field(() => String, { nullable: true, description: 'The stored package ZIP, once generated.' }) packageUrl!: string | null;
  @Field(() => GraphQLJSONObject) contextual!: Record<string, unknown>;
  @Field(() => CatalogArtifactsType) artifacts!: CatalogArtifactsType;
  @Field(() => CatalogNodeType, { description: 'The root cluster; nest `children` as deep as you need.' }) root!: CatalogNodeType;
  /** Absent from the view: CatalogResolver renders it from `root`, so no REST-shaped copy of the tree is kept. */
  @Field(() => GraphQLJSONObject, { description: 'The whole tree at any depth, as the REST `components[0]`.' }) tree?: Record<string, unknown>;
}

@ObjectType('CatalogProject')
export class CatalogProjectType implements ProjectView {
  @Field() name!: string;
  @Field() isLibrary!: boolean;
  @Field(() => Int) components!: number;
  @Field(() => Int) clusters!: number;
  @Field(() => Int) dataModels!: number;
}

@ObjectType('CatalogIndex', { description: 'What the caller can see in the catalog.' })
export class CatalogIndexType implements CatalogIndexView {
  @Field(() => [String]) dataTypes!: string[];
  @Field(() => Int) components!: number;
  @Field(() => Int) clusters!: number;
  @Field(() => Int) dataModels!: number;
  @Field(() => [CatalogProjectType]) projects!: CatalogProjectType[];
}
