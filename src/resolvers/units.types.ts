import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';
import type { CatalogStatus } from '../entities/catalog-entry';
import type { PageView } from '../presenters/catalog.presenter';
import type { UnitsDraftView } from '../presenters/drafts-units.presenter';

/** GraphQL types of Units drafts: the object type implements the service's view; the inputs carry the REST body's
 * fields in camelCase and become the same raw body the Units parser reads (`toBody`). */

@ObjectType('DraftUnits', { description: 'The Units of a quantified value; a component naming its ctId in `units` stores its label.' })
export class DraftUnitsType implements UnitsDraftView {
  @Field(() => Int) id!: number;
  @Field() ctId!: string;
  @Field({ description: 'The unit, e.g. kg.' }) label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => [String], { description: 'Alternative symbols of the unit, in order.' }) enums!: string[];
  @Field(() => String, { description: 'draft or published' }) status!: CatalogStatus;
  @Field() published!: boolean;
  @Field() isPublic!: boolean;
  @Field() projectCtId!: string;
  @Field() projectName!: string;
  @Field(() => [Int], { description: 'Ids of the predicate-object pairs (semantic links).' }) predObj!: number[];
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime) updated!: Date;
}

@ObjectType('DraftUnitsPage')
export class DraftUnitsPage implements PageView<UnitsDraftView> {
  @Field(() => Int) count!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => [DraftUnitsType]) results!: UnitsDraftView[];
}

@InputType('DraftUnitsUpdateInput', { description: 'Any of the editable fields; null clears description, enums, predObj.' })
export class DraftUnitsUpdateInput {
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String], { nullable: true }) enums?: string[] | null;
  @Field(() => [Int], { nullable: true }) predObj?: number[] | null;

  /** Only the fields a caller gave: absent stays absent, an explicit null clears (as in a REST PATCH). */
  toBody(): Record<string, unknown> {
    const entries: Array<[string, unknown]> = [
      ['label', this.label],
      ['description', this.description],
      ['enums', this.enums],
      ['pred_obj', this.predObj],
    ];
    return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  }
}

@InputType('DraftUnitsInput')
export class DraftUnitsInput extends DraftUnitsUpdateInput {
  @Field(() => String, { nullable: true, description: 'A project ct_id of yours; your default project when absent.' })
  project?: string | null;

  override toBody(): Record<string, unknown> {
    return { ...super.toBody(), ...(this.project !== undefined ? { project: this.project } : {}) };
  }
}
