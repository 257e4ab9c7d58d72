import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { Caller } from '../services/auth.service';
import { parseReceiptId, parseSettleBody, parseTriggerBody, renderReceiptStatus, renderSettle, type ReceiptStatusView } from '../vsl';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { IDEMPOTENCY_KEY_DOC, idempotently } from './idempotency';
import { SettlementStatusType, SettlementType } from './vsl.types';

const statusNode = (view: ReceiptStatusView): SettlementStatusType => {
  const body = renderReceiptStatus(view);
  return { ...body, receiptId: body.receipt_id, receipt: body.receipt as unknown as Record<string, unknown> };
};

/** The REST settlement calls as GraphQL fields: same parsers, same service, same charge. */
@Resolver()
export class VslResolver {
  @Requires('spend', { charges: 'settlement' })
  @Mutation(() => SettlementType, { description: 'Settles a transition and issues a signed Receipt (VSL_RECEIPT_CREDITS, PERMIT or DENY).' })
  async settle(
    @Arg('payload', { description: 'The SDC4 XML instance, as text.' }) payload: string,
    @Arg('targetState') targetState: string,
    @Arg('condition', () => GraphQLJSONObject, { description: 'Hashed into condition_hash, never stored.' }) condition: Record<string, unknown>,
    @Arg('parties', () => [String], { description: 'At least two key_id URIs (https:// or did:web:).' }) parties: string[],
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('currentState', () => String, { nullable: true }) currentState?: string | null,
    @Arg('previousReceiptId', () => String, { nullable: true }) previousReceiptId?: string | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<SettlementType> {
    const input = parseSettleBody({
      payload,
      target_state: targetState,
      condition,
      parties,
      current_state: currentState ?? undefined,
      previous_receipt_id: previousReceiptId ?? undefined,
    });
    return idempotently(ctx, caller, 'settle', idempotencyKey, input, async () => {
      const body = renderSettle(await ctx.services.vsl.settle(caller, input));
      return {
        receiptId: body.receipt.receipt_id,
        decision: body.governance.decision,
        settleable: body.governance.settleable,
        receipt: body.receipt as unknown as Record<string, unknown>,
        governance: body.governance,
        verification: body.verification,
        wallet: body.wallet,
      };
    });
  }

  @Requires('public')
  @Mutation(() => SettlementStatusType, { description: "A party's trigger: its ES256 signature over {condition_hash, receipt_id}." })
  async trigger(
    @Arg('receiptId') receiptId: string,
    @Arg('keyId') keyId: string,
    @Arg('signature') signature: string,
    @Arg('timestamp') timestamp: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<SettlementStatusType> {
    const input = parseTriggerBody({ receipt_id: receiptId, key_id: keyId, signature, timestamp });
    return statusNode(await ctx.services.vsl.trigger(input));
  }

  @Requires('public')
  @Query(() => SettlementStatusType, { description: 'A Receipt with its triggers and settlement status.' })
  async receipt(@Arg('receiptId') receiptId: string, @Ctx() ctx: GraphQLContext): Promise<SettlementStatusType> {
    return statusNode(await ctx.services.vsl.receipt(parseReceiptId(receiptId, 'receiptId')));
  }

  @Requires('public')
  @Subscription(() => SettlementStatusType, {
    description: "A Receipt's status now, then after each trigger, ending when the settlement completes (at once for a DENY).",
    subscribe: ({ args, context }) => {
      const { services } = context as GraphQLContext;
      const receiptId = parseReceiptId((args as { receiptId: string }).receiptId, 'receiptId');
      return (async function* () {
        for await (const view of services.vsl.watch(receiptId)) yield statusNode(view);
      })();
    },
  })
  settlementUpdated(@Root() status: SettlementStatusType, @Arg('receiptId') _receiptId: string): SettlementStatusType {
    return status;
  }
}
