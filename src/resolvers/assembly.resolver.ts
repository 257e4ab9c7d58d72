import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import {
  AssembleResult,
  AssemblyInput,
  type AssemblyClusterInput,
  type AssemblyComponentInput,
  type AssemblyJobType,
  type BuiltModelType,
  EstimateType,
} from './assembly.types';
import { CatalogResolver } from './catalog.resolver';
import { Requires, type GraphQLContext } from './context';

type Json = Record<string, unknown>;

/** Drops null and absent fields: GraphQL null means "not sent", as an absent REST field. */
const compact = (fields: Json): Json => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));

const componentBody = (c: AssemblyComponentInput): Json =>
  compact({ ct_id: c.ctId, label: c.label, data_type: c.dataType, description: c.description, units: c.units });

const clusterBody = (c: AssemblyClusterInput): Json =>
  compact({
    label: c.label,
    ct_id: c.ctId,
    description: c.description,
    components: c.components?.map(componentBody),
    clusters: c.clusters?.map(clusterBody),
  });

/** The REST body for the same input, so the service parses, validates and names paths exactly as for REST. */
export function toAssemblyBody(input: AssemblyInput): Json {
  const contextual = input.contextual
    ? Object.fromEntries(Object.entries(input.contextual).flatMap(([name, ref]) => (ref ? [[name, { ct_id: (ref as { ctId: string }).ctId }]] : [])))
    : undefined;
  return compact({
    title: input.title,
    description: input.description,
    data: clusterBody(input.data),
    contextual,
    allow_retired: input.allowRetired,
    publish: input.publish,
    generate: input.generate,
    estimate_id: input.estimateId,
  });
}

@Resolver()
export class AssemblyResolver {
  @Requires('build')
  @Query(() => EstimateType, { description: 'Prices an assembly: what is reused, what is minted, what it costs; builds and charges nothing.' })
  async estimate(@Arg('input', () => AssemblyInput) input: AssemblyInput, @Ctx() ctx: GraphQLContext): Promise<EstimateType> {
    const e = await ctx.services.assembly.estimate(ctx.caller!, toAssemblyBody(input));
    return {
      estimateId: e.estimate_id,
      mode: e.mode,
      reuse: e.reuse.map((r) => ({ path: r.path, ctId: r.ct_id, label: r.label, type: r.type })),
      mint: e.mint.map((m) => ({ path: m.path, label: m.label, dataType: m.data_type })),
      problems: e.problems.map((p) => ({ path: p.path, ctId: p.ct_id, problem: p.problem, message: p.message, successor: p.successor ?? null })),
      modelCredits: e.model_credits,
      mintCredits: e.mint_credits,
      totalCredits: e.total_credits,
      totalUsd: e.total_usd,
      wallet: { balanceCredits: e.wallet.balance_credits, canPay: e.wallet.can_pay },
      key: e.key
        ? {
            scopes: e.key.scopes,
            canSpend: e.key.can_spend,
            spendLimitCredits: e.key.spend_limit_credits,
            spentCredits: e.key.spent_credits,
            remainingCredits: e.key.remaining_credits,
            withinLimit: e.key.within_limit,
          }
        : null,
    };
  }

  @Requires('build')
  @Mutation(() => AssembleResult, { description: 'Builds a model: a BuiltModel when every leaf is reused, else an AssemblyJob (mixed).' })
  async assemble(@Arg('input', () => AssemblyInput) input: AssemblyInput, @Ctx() ctx: GraphQLContext): Promise<BuiltModelType | AssemblyJobType> {
    const { services } = ctx;
    const outcome = await services.pipeline.assemble(ctx.caller!, toAssemblyBody(input));
    const costs = { estimatedCostCredits: outcome.estimatedCostCredits, balanceCredits: outcome.balanceCredits };
    if (outcome.mode === 'mixed') {
      return {
        jobCtId: outcome.job.ctId,
        jobUrl: services.links.job(outcome.job.ctId),
        taskId: outcome.job.taskId,
        dataSourceCtId: outcome.dataSourceCtId,
        ...costs,
        job: await services.jobs.view(outcome.job),
      };
    }
    const { result } = outcome;
    return {
      ...(await new CatalogResolver().catalogModel(result.dm_ct_id, ctx)),
      published: result.published,
      generated: result.generated,
      packageUrl: result.package_url,
      modelUrl: result.model_url,
      finalizeError: result.finalize_error,
      ...costs,
    };
  }
}
