import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';
import type { CatalogStatus } from '../entities/catalog-entry';
import type { PageView } from '../presenters/catalog.presenter';
import type {
  ClusterChildView,
  ClusterDraftView,
  ComponentDraftView,
  ModelDraftView,
  NamespaceView,
  PredicateView,
  PredObjView,
} from '../presenters/drafts.presenter';
import type { DublinCore, TemporalPart } from '../parsers/drafts.parser';

/** GraphQL types of the drafts API: the object types implement the services' views; the input types carry the
 * REST bodies' fields in camelCase and become the same raw bodies the drafts parser reads (`toBody`). */

/** Only the fields a caller gave: absent stays absent, an explicit null clears (as in a REST PATCH). */
function given(entries: Array<[string, unknown]>): Record<string, unknown> {
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}

@ObjectType('DraftComponent', { description: 'A component of the drafts API: editable while a draft, immutable once published.' })
export class DraftComponentType implements ComponentDraftView {
  @Field(() => Int) id!: number;
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field({ description: 'The reference-model type, e.g. XdString.' }) dataType!: string;
  @Field(() => String, { description: 'draft, published or retired' }) status!: CatalogStatus;
  @Field() published!: boolean;
  @Field() isPublic!: boolean;
  @Field() projectCtId!: string;
  @Field() projectName!: string;
  @Field(() => String, { nullable: true }) units!: string | null;
  @Field(() => [String], { description: 'Enumerated values, in order.' }) enums!: string[];
  @Field(() => GraphQLJSONObject, { description: 'Enumerated value → description.' }) enumDescr!: Record<string, string>;
  @Field(() => [String], { description: 'XdTemporal: the parts allowed (date, datetime, …); empty means all.' }) allow!: TemporalPart[];
  @Field(() => [String]) referenceRanges!: string[];
  @Field(() => [Int], { description: 'Ids of the predicate-object pairs (semantic links).' }) predObj!: number[];
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime) updated!: Date;
}

@ObjectType('DraftComponentMint', { description: 'A minted component and what it cost.' })
export class DraftComponentMintType {
  @Field(() => DraftComponentType) component!: DraftComponentType;
  @Field(() => Int) estimatedCostCredits!: number;
  @Field(() => Int) balanceCredits!: number;
}

@ObjectType('DraftClusterChild')
export class DraftClusterChildType implements ClusterChildView {
  @Field(() => String, { description: 'component or cluster' }) kind!: 'component' | 'cluster';
  @Field() ctId!: string;
  @Field(() => String, { nullable: true }) dataType!: string | null;
}

@ObjectType('DraftCluster')
export class DraftClusterType implements ClusterDraftView {
  @Field(() => Int) id!: number;
  @Field() ctId!: string;
  @Field() label!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String) status!: CatalogStatus;
  @Field() published!: boolean;
  @Field() isPublic!: boolean;
  @Field() projectCtId!: string;
  @Field() projectName!: string;
  @Field(() => [DraftClusterChildType]) children!: DraftClusterChildType[];
  @Field(() => [Int]) predObj!: number[];
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime) updated!: Date;
}

@ObjectType('DraftModel')
export class DraftModelType implements ModelDraftView {
  @Field(() => Int) id!: number;
  @Field() ctId!: string;
  @Field() title!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field() published!: boolean;
  @Field() generated!: boolean;
  @Field() rootClusterCtId!: string;
  @Field(() => GraphQLJSONObject, { description: 'subject, publisher, source, rights, language when set.' }) dublinCore!: DublinCore;
  @Field() projectCtId!: string;
  @Field() projectName!: string;
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime) updated!: Date;
}

@ObjectType('SemanticNamespace')
export class NamespaceType implements NamespaceView {
  @Field(() => Int) id!: number;
  @Field() abbrev!: string;
  @Field() uri!: string;
}

@ObjectType('SemanticPredicate')
export class PredicateType implements PredicateView {
  @Field(() => Int) id!: number;
  @Field() nsPrefix!: string;
  @Field() className!: string;
  @Field() uri!: string;
}

@ObjectType('PredObj', { description: 'A semantic link: a predicate and an object URI, in a project.' })
export class PredObjType implements PredObjView {
  @Field(() => Int) id!: number;
  @Field(() => Int) predicateId!: number;
  @Field() predicateName!: string;
  @Field() objectUri!: string;
  @Field(() => String, { nullable: true }) poName!: string | null;
  @Field() projectCtId!: string;
}

function pageType<V, T>(name: string, item: new () => T) {
  @ObjectType(name)
  class Page implements PageView<V> {
    @Field(() => Int) count!: number;
    @Field(() => Int) page!: number;
    @Field(() => Int) pageSize!: number;
    @Field(() => [item]) results!: V[];
  }
  return Page;
}

export const DraftComponentPage = pageType<ComponentDraftView, DraftComponentType>('DraftComponentPage', DraftComponentType);
export const DraftClusterPage = pageType<ClusterDraftView, DraftClusterType>('DraftClusterPage', DraftClusterType);
export const DraftModelPage = pageType<ModelDraftView, DraftModelType>('DraftModelPage', DraftModelType);
export const NamespacePage = pageType<NamespaceView, NamespaceType>('SemanticNamespacePage', NamespaceType);
export const PredicatePage = pageType<PredicateView, PredicateType>('SemanticPredicatePage', PredicateType);
export const PredObjPage = pageType<PredObjView, PredObjType>('PredObjPage', PredObjType);

@InputType('DraftComponentUpdateInput', { description: 'Any of the editable fields; null clears units, enums, enumDescr, predObj.' })
export class DraftComponentUpdateInput {
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) units?: string | null;
  @Field(() => [String], { nullable: true }) enums?: string[] | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) enumDescr?: Record<string, unknown> | null;
  @Field(() => [Int], { nullable: true }) predObj?: number[] | null;
  @Field(() => [String], { nullable: true, description: 'XdTemporal parts to allow: date, time, datetime, duration, year, …' })
  allow?: string[] | null;
  @Field(() => [String], { nullable: true }) referenceRanges?: string[] | null;

  toBody(): Record<string, unknown> {
    const allow = this.allow ? Object.fromEntries(this.allow.map((part) => [`allow_${part}`, true])) : {};
    return {
      ...given([
        ['label', this.label],
        ['description', this.description],
        ['units', this.units],
        ['enums', this.enums],
        ['enum_descr', this.enumDescr],
        ['pred_obj', this.predObj],
        ['reference_ranges', this.referenceRanges],
      ]),
      ...allow,
    };
  }
}

@InputType('DraftComponentInput')
export class DraftComponentInput extends DraftComponentUpdateInput {
  @Field({ description: 'XdString, XdBoolean, XdToken, XdLink, XdFile, XdCount, XdQuantity, XdFloat, XdDouble, XdOrdinal or XdTemporal.' })
  dataType!: string;
  @Field(() => String, { nullable: true, description: 'A project ct_id of yours; your default project when absent.' })
  project?: string | null;

  override toBody(): Record<string, unknown> {
    return { ...super.toBody(), ...given([['project', this.project]]) };
  }
}

@InputType('DraftClusterUpdateInput')
export class DraftClusterUpdateInput {
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [Int], { nullable: true }) predObj?: number[] | null;

  toBody(): Record<string, unknown> {
    return given([
      ['label', this.label],
      ['description', this.description],
      ['pred_obj', this.predObj],
    ]);
  }
}

@InputType('DraftClusterInput', { description: 'Children: the components first, then the clusters, each in order.' })
export class DraftClusterInput extends DraftClusterUpdateInput {
  @Field(() => String, { nullable: true }) project?: string | null;
  @Field(() => [String], { nullable: true }) components?: string[] | null;
  @Field(() => [String], { nullable: true }) clusters?: string[] | null;

  override toBody(): Record<string, unknown> {
    return {
      ...super.toBody(),
      ...given([
        ['project', this.project],
        ['components', this.components],
        ['clusters', this.clusters],
      ]),
    };
  }
}

@InputType('DraftModelUpdateInput')
export class DraftModelUpdateInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) dcSubject?: string | null;
  @Field(() => String, { nullable: true }) publisher?: string | null;
  @Field(() => String, { nullable: true }) source?: string | null;
  @Field(() => String, { nullable: true }) rights?: string | null;
  @Field(() => String, { nullable: true, description: 'BCP 47, e.g. en-US.' }) language?: string | null;

  toBody(): Record<string, unknown> {
    return given([
      ['title', this.title],
      ['description', this.description],
      ['dc_subject', this.dcSubject],
      ['publisher', this.publisher],
      ['source', this.source],
      ['rights', this.rights],
      ['language', this.language],
    ]);
  }
}

@InputType('DraftModelInput')
export class DraftModelInput extends DraftModelUpdateInput {
  @Field({ description: 'The root cluster ct_id.' }) data!: string;
  @Field(() => String, { nullable: true }) project?: string | null;

  override toBody(): Record<string, unknown> {
    return {
      ...super.toBody(),
      ...given([
        ['data', this.data],
        ['project', this.project],
      ]),
    };
  }
}

@InputType('SemanticNamespaceInput')
export class NamespaceInput {
  @Field() abbrev!: string;
  @Field({ description: 'Ends with # or /.' }) uri!: string;
}

@InputType('SemanticPredicateInput')
export class PredicateInput {
  @Field({ description: 'The namespace: its id or its abbreviation.' }) nsAbbrev!: string;
  @Field() className!: string;
}

@InputType('PredObjInput')
export class PredObjInput {
  @Field(() => Int) predicate!: number;
  @Field() objectUri!: string;
  @Field(() => String, { nullable: true }) poName?: string | null;
  @Field(() => String, { nullable: true }) project?: string | null;
}
