import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

/** Settlement results: the scalar fields clients branch on, and the REST bodies' parts as JSON objects (one
 * rendering, src/presenters/vsl.presenter.ts). */

@ObjectType('Settlement', { description: 'A settle answer: the signed Receipt, the governance verdict, how to verify it, the charge.' })
export class SettlementType {
  @Field() receiptId!: string;
  @Field({ description: 'PERMIT or DENY' }) decision!: string;
  @Field() settleable!: boolean;
  @Field(() => GraphQLJSONObject, { description: 'The signed Receipt (format 1.0), triggers empty.' }) receipt!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: 'decision, settleable; on DENY current_state, allowed_transitions, workflow, hint.' })
  governance!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject) verification!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: 'charged, balance (USD strings), charged_credits, balance_credits.' }) wallet!: Record<
    string,
    unknown
  >;
}

@ObjectType('SettlementStatus', { description: 'A Receipt with its triggers: who has triggered and who is awaited.' })
export class SettlementStatusType {
  @Field() receiptId!: string;
  @Field({ description: 'settled, awaiting_triggers or denied' }) status!: string;
  @Field() decision!: string;
  @Field() settleable!: boolean;
  @Field(() => [String]) parties!: string[];
  @Field(() => [String]) triggered!: string[];
  @Field(() => [String]) awaiting!: string[];
  @Field(() => GraphQLJSONObject) receipt!: Record<string, unknown>;
}
