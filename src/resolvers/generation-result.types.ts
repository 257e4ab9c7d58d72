import { Field, ObjectType } from 'type-graphql';
import type { GenerationView } from '../presenters/generation.presenter';
import { AppProfileEnum } from './enums';

@ObjectType('Generation', { description: 'A package (and, for generateApp, an application): generated inside the request, or by a job.' })
export class GenerationType implements GenerationView {
  @Field() dmCtId!: string;
  @Field() modelUrl!: string;
  @Field() catalogUrl!: string;
  @Field(() => String, { nullable: true }) packageUrl!: string | null;
  @Field(() => AppProfileEnum, { nullable: true, description: 'generateApp only.' }) profile!: GenerationView['profile'];
  @Field(() => String, { nullable: true }) appName!: string | null;
  @Field(() => String, { nullable: true }) appUrl!: string | null;
}
