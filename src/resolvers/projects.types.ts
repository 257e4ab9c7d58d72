import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { PageView } from '../presenters/catalog.presenter';
import type { ModelerView, ProjectListView } from '../presenters/projects.presenter';

@ArgsType()
export class ProjectPageArgs {
  @Field(() => Int, { nullable: true }) pageSize?: number;
  @Field(() => Int, { nullable: true }) page?: number;
}

@ObjectType('Project')
export class ProjectType implements ProjectListView {
  @Field() ctId!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: 'Null for the library.' }) ownerEmail!: string | null;
  @Field() isPublic!: boolean;
  @Field({ description: 'The shared library (imports and contextual components).' }) isDefaultLibrary!: boolean;
}

@ObjectType('ProjectPage')
export class ProjectPage implements PageView<ProjectListView> {
  @Field(() => Int) count!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => [ProjectType]) results!: ProjectType[];
}

@ObjectType('Modeler')
export class ModelerType implements ModelerView {
  @Field() name!: string;
  @Field() email!: string;
  @Field(() => ProjectType, { description: 'The default project.' }) project!: ProjectType;
}
