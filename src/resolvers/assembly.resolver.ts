import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { EstimateView } from '../presenters/assembly.presenter';
import type { Caller } from '../services/auth.service';
import { AssembleResult, AssemblyInput, type AssemblyJobType, type BuiltModelType, EstimateType } from './assembly.types';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { IDEMPOTENCY_KEY_DOC, idempotently } from './idempotency';
import { jobNode } from './jobs.types';

@Resolver()
export class AssemblyResolver {
  @Requires('build')
  @Query(() => EstimateType, { description: 'Prices an assembly: what is reused, what is minted, what it costs; builds and charges nothing.' })
  async estimate(
    @Arg('input', () => AssemblyInput) input: AssemblyInput,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
  ): Promise<EstimateView> {
    return ctx.services.assembly.estimate(caller, input.toRequest());
  }

  @Requires('build', { charges: 'assembly' })
  @Mutation(() => AssembleResult, { description: 'Builds a model: a BuiltModel when every leaf is reused, else an AssemblyJob (mixed).' })
  async assemble(
    @Arg('input', () => AssemblyInput) input: AssemblyInput,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<BuiltModelType | AssemblyJobType> {
    const { services } = ctx;
    return idempotently(ctx, caller, 'assemble', idempotencyKey, input, async () => {
      const view = await services.pipeline.assemble(caller, input.toRequest());
      if (view.mode === 'mixed') return { ...view, job: jobNode(view.job, services.links) };
      return { ...view.model, ...view };
    });
  }
}
