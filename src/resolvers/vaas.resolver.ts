import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { sha256Hex } from '../lib/crypto';
import { parseSignQuery, parseValidateQuery, type VaasRequest } from '../parsers/vaas.parser';
import type { VaasView } from '../presenters/vaas.presenter';
import type { Caller } from '../services/auth.service';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { IDEMPOTENCY_KEY_DOC, idempotently } from './idempotency';
import { VaasResultType } from './vaas.types';

function run(ctx: GraphQLContext, caller: Caller, mutation: string, request: VaasRequest, xml: string, key: string | null | undefined) {
  return idempotently(ctx, caller, mutation, key, { request, sha256: sha256Hex(xml) }, () => ctx.services.vaas.validate(caller, { ...request, xml }));
}

/** The REST validation-as-a-service calls as mutations: same checks, same charges (scope spend). */
@Resolver()
export class VaasResolver {
  @Requires('spend', { charges: 'vaas' })
  @Mutation(() => VaasResultType, { description: 'Validates an SDC4 instance against its model (VAAS_VALIDATION_CREDITS).' })
  async validateInstance(
    @Arg('xml') xml: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('mode', () => String, { nullable: true, description: 'strict (default; report is a synonym) or recover' }) mode?: string | null,
    @Arg('package', () => Boolean, { nullable: true, defaultValue: false }) pkg?: boolean | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<VaasView> {
    const request = parseValidateQuery({ mode: mode ?? undefined, package: pkg ?? false });
    return run(ctx, caller, 'validateInstance', request, xml, idempotencyKey);
  }

  @Requires('spend', { charges: 'vaas' })
  @Mutation(() => VaasResultType, { description: 'Validates and, when valid, signs an instance (VAAS_VALIDATION_CREDITS + VAAS_SIGNATURE_CREDITS).' })
  async signInstance(
    @Arg('xml') xml: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('recover', () => Boolean, { nullable: true, defaultValue: true }) recover?: boolean | null,
    @Arg('package', () => Boolean, { nullable: true, defaultValue: false }) pkg?: boolean | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<VaasView> {
    const request = parseSignQuery({ recover: recover ?? true, package: pkg ?? false });
    return run(ctx, caller, 'signInstance', request, xml, idempotencyKey);
  }
}
