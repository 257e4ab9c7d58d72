import { GraphQLSafeInt } from 'graphql-scalars';
import { createUnionType, Field, InputType, ObjectType } from 'type-graphql';
import { parseAssemblyRequest, type AssemblyRequest } from '../parsers/assembly.parser';
import type { AssemblyMode } from '../presenters/assembly.presenter';
import type { Scope } from '../entities/api-key.entity';
import { CatalogModelType } from './catalog.types';
import { AssemblyModeEnum, ScopeEnum } from './enums';
import { JobType, type JobNode } from './jobs.types';

type Json = Record<string, unknown>;

/** Drops null and absent fields: GraphQL null means "not sent", as an absent REST field. */
const compact = (fields: Json): Json => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));

@InputType('AssemblyComponentInput', { description: 'A reused component {ctId}, or a new one {label, dataType, description, units}.' })
export class AssemblyComponentInput {
  @Field(() => String, { nullable: true }) ctId?: string | null;
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => String, { nullable: true, description: 'A reference-model type, e.g. XdString, XdCount.' }) dataType?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) units?: string | null;

  /** The REST field names, so the one parser validates both transports and names the REST paths. */
  toBody(): Json {
    return compact({ ct_id: this.ctId, label: this.label, data_type: this.dataType, description: this.description, units: this.units });
  }
}

@InputType('AssemblyClusterInput', { description: 'A reused cluster {ctId}, or a new one with a label and children.' })
export class AssemblyClusterInput {
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => String, { nullable: true }) ctId?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [AssemblyComponentInput], { nullable: true }) components?: AssemblyComponentInput[] | null;
  @Field(() => [AssemblyClusterInput], { nullable: true }) clusters?: AssemblyClusterInput[] | null;

  toBody(): Json {
    return compact({
      label: this.label,
      ct_id: this.ctId,
      description: this.description,
      components: this.components?.map((c) => c.toBody()),
      clusters: this.clusters?.map((c) => c.toBody()),
    });
  }
}

@InputType('ContextualRefInput')
export class ContextualRefInput {
  @Field() ctId!: string;
}

@InputType('ContextualInput', { description: 'The model’s contextual components, each a published component {ctId}.' })
export class ContextualInput {
  @Field(() => ContextualRefInput, { nullable: true }) audit?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) attestation?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) party?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) subject?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) provider?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) participation?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) protocol?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) workflow?: ContextualRefInput | null;
  @Field(() => ContextualRefInput, { nullable: true }) acs?: ContextualRefInput | null;
}

@InputType('AssemblyInput', { description: 'The REST assemble body; errors name the REST paths (data.clusters[0].components[2]).' })
export class AssemblyInput {
  @Field() title!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => AssemblyClusterInput, { description: 'The root cluster.' }) data!: AssemblyClusterInput;
  @Field(() => ContextualInput, { nullable: true }) contextual?: ContextualInput | null;
  @Field(() => Boolean, { nullable: true, description: 'Default false.' }) allowRetired?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) publish?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Default true; needs publish.' }) generate?: boolean | null;
  @Field(() => String, { nullable: true, description: 'From estimate: refused (stale_estimate) if the title or tree changed since.' })
  estimateId?: string | null;

  /** Parsed exactly as the REST body: same rules, same 400 `malformed_tree` details. */
  toRequest(): AssemblyRequest {
    const contextual = this.contextual
      ? Object.fromEntries(
          Object.entries(this.contextual).flatMap(([name, ref]: [string, ContextualRefInput | null | undefined]) =>
            ref ? [[name, { ct_id: ref.ctId }]] : [],
          ),
        )
      : undefined;
    return parseAssemblyRequest(
      compact({
        title: this.title,
        description: this.description,
        data: this.data.toBody(),
        contextual,
        allow_retired: this.allowRetired,
        publish: this.publish,
        generate: this.generate,
        estimate_id: this.estimateId,
      }),
    );
  }
}

@ObjectType('EstimateReuse')
export class EstimateReuseType {
  @Field() path!: string;
  @Field() ctId!: string;
  @Field() label!: string;
  @Field() type!: string;
}

@ObjectType('EstimateMint')
export class EstimateMintType {
  @Field() path!: string;
  @Field() label!: string;
  @Field() dataType!: string;
}

@ObjectType('EstimateProblem')
export class EstimateProblemType {
  @Field() path!: string;
  @Field() ctId!: string;
  @Field({ description: 'unknown, unpublished or retired' }) problem!: string;
  @Field() message!: string;
  @Field(() => String, { nullable: true }) successor!: string | null;
}

@ObjectType('EstimateWallet')
export class EstimateWalletType {
  @Field(() => GraphQLSafeInt) balanceCredits!: number;
  @Field() canPay!: boolean;
}

@ObjectType('EstimateKey')
export class EstimateKeyType {
  @Field(() => [ScopeEnum]) scopes!: Scope[];
  @Field() canSpend!: boolean;
  @Field(() => GraphQLSafeInt, { nullable: true }) spendLimitCredits!: number | null;
  @Field(() => GraphQLSafeInt) spentCredits!: number;
  @Field(() => GraphQLSafeInt, { nullable: true }) remainingCredits!: number | null;
  @Field() withinLimit!: boolean;
}

@ObjectType('Estimate', { description: 'The price of an assembly; builds and charges nothing.' })
export class EstimateType {
  @Field({ description: 'Hash of the title and tree; send it back with assemble.' }) estimateId!: string;
  @Field(() => AssemblyModeEnum) mode!: AssemblyMode;
  @Field(() => [EstimateReuseType]) reuse!: EstimateReuseType[];
  @Field(() => [EstimateMintType]) mint!: EstimateMintType[];
  @Field(() => [EstimateProblemType]) problems!: EstimateProblemType[];
  @Field(() => GraphQLSafeInt) modelCredits!: number;
  @Field(() => GraphQLSafeInt) mintCredits!: number;
  @Field(() => GraphQLSafeInt) totalCredits!: number;
  @Field() totalUsd!: string;
  @Field(() => EstimateWalletType) wallet!: EstimateWalletType;
  @Field(() => EstimateKeyType, { nullable: true, description: 'Only when the caller uses an API key.' }) key!: EstimateKeyType | null;
}

@ObjectType('BuiltModel', { description: 'A model built inside the request (every leaf reused).' })
export class BuiltModelType extends CatalogModelType {
  @Field() modelUrl!: string;
  @Field(() => String, { nullable: true, description: 'Publishing or generating failed; the model and the charge stay.' })
  finalizeError!: string | null;
  @Field(() => GraphQLSafeInt) estimatedCostCredits!: number;
  @Field(() => GraphQLSafeInt) balanceCredits!: number;
}

@ObjectType('AssemblyJob', { description: 'A mixed assembly (new leaves to mint), queued as a job.' })
export class AssemblyJobType {
  @Field() jobCtId!: string;
  @Field() jobUrl!: string;
  @Field(() => String, { nullable: true }) taskId!: string | null;
  @Field() dataSourceCtId!: string;
  @Field(() => GraphQLSafeInt, { description: 'Leaf components the run mints (clusters not counted).' }) newComponents!: number;
  @Field({ description: 'The price in US dollars ("0.800"), exact.' }) estimatedCost!: string;
  @Field(() => GraphQLSafeInt) estimatedCostCredits!: number;
  @Field(() => GraphQLSafeInt) balanceCredits!: number;
  @Field(() => JobType) job!: JobNode;
}

export const AssembleResult = createUnionType({
  name: 'AssembleResult',
  types: () => [BuiltModelType, AssemblyJobType] as const,
  resolveType: (value) => ('jobCtId' in value ? AssemblyJobType : BuiltModelType),
});
