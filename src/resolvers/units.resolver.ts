import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { parseDraftPage } from '../parsers/drafts.parser';
import { parseNewUnits, parseUnitsFields } from '../parsers/drafts-units.parser';
import type { PageView } from '../presenters/catalog.presenter';
import type { UnitsDraftView } from '../presenters/drafts-units.presenter';
import type { Caller } from '../services/auth.service';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { DraftUnitsInput, DraftUnitsPage, DraftUnitsType, DraftUnitsUpdateInput } from './units.types';

const PAGE = { nullable: true } as const;

/** Units drafts in GraphQL: the same parsers and services as the REST routes (drafts-units.routes.ts). */
@Resolver()
export class UnitsResolver {
  @Requires('read')
  @Query(() => DraftUnitsPage, { description: "Your Units, drafts first, then the library's reference Units." })
  async draftUnitsList(
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
    @Arg('page', () => Int, PAGE) page?: number,
    @Arg('pageSize', () => Int, PAGE) pageSize?: number,
  ): Promise<PageView<UnitsDraftView>> {
    return services.drafts.units.list(caller.user.id, parseDraftPage({ page: page ?? undefined, pageSize: pageSize ?? undefined }));
  }

  @Requires('read')
  @Query(() => DraftUnitsType, { description: "A Units of yours, or a published one; another user's draft is not found." })
  async draftUnits(@Arg('ctId') ctId: string, @CurrentCaller() caller: Caller, @Ctx() { services }: GraphQLContext): Promise<UnitsDraftView> {
    return services.drafts.units.get(caller.user.id, ctId);
  }

  @Requires('build')
  @Mutation(() => DraftUnitsType, { description: 'Creates a draft Units (free, like the rest of the vocabulary).' })
  async createDraftUnits(
    @Arg('input', () => DraftUnitsInput) input: DraftUnitsInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<UnitsDraftView> {
    return services.drafts.units.create(caller.user.id, parseNewUnits(input.toBody()));
  }

  @Requires('build')
  @Mutation(() => DraftUnitsType, { description: 'Edits a draft Units of yours; a published one is immutable (409).' })
  async updateDraftUnits(
    @Arg('ctId') ctId: string,
    @Arg('input', () => DraftUnitsUpdateInput) input: DraftUnitsUpdateInput,
    @CurrentCaller() caller: Caller,
    @Ctx() { services }: GraphQLContext,
  ): Promise<UnitsDraftView> {
    return services.drafts.units.update(caller.user.id, ctId, parseUnitsFields(input.toBody()));
  }

  @Requires('build')
  @Mutation(() => DraftUnitsType, { description: 'Publishes a draft Units of yours.' })
  async publishDraftUnits(@Arg('ctId') ctId: string, @CurrentCaller() caller: Caller, @Ctx() { services }: GraphQLContext): Promise<UnitsDraftView> {
    return services.drafts.units.publish(caller.user.id, ctId);
  }
}
