import { newUnitsBodySchema, unitsUpdateBodySchema } from '../../parsers/drafts.schema';
import { parseNewUnits, parseUnitsFields } from '../../parsers/drafts-units.parser';
import { renderLinkedPage } from '../../presenters/catalog.presenter';
import { renderUnitsDraft } from '../../presenters/drafts-units.presenter';
import { unitsDraftPageSchema, unitsDraftSchema } from '../../presenters/drafts.schema';
import { route, type StudioRoute } from '../route-table';
import { BASE, bodyDoc, listDoc, oneDoc, pageOf, pageUrlOf, TAG } from './drafts-docs';

/** Units drafts (`/dmgen/units/`): the Units a quantified component names by ct_id in its `units`. Free to create,
 * like the rest of the vocabulary; writing needs `build`, reading `read`. */

const USED_BY =
  'A component (or an assembly mint ref) whose `units` is this ct_id stores the label as its unit text when it is ' +
  'written, so every generated artefact names the unit. Free: no charge, no X-SDC headers.';

export const unitsRoutes: StudioRoute[] = [
  route({
    method: 'get',
    path: `${BASE}/units/`,
    requirement: 'read',
    doc: listDoc('Your Units (drafts and published), then the library’s reference Units', unitsDraftPageSchema),
    handle: async (ctx) => {
      const found = await ctx.services.drafts.units.list(ctx.caller.user.id, pageOf(ctx));
      return { status: 200, body: renderLinkedPage(found, renderUnitsDraft, pageUrlOf(ctx)) };
    },
  }),
  route({
    method: 'post',
    path: `${BASE}/units/`,
    requirement: 'build',
    idempotent: true,
    doc: bodyDoc('Create a draft Units (free)', newUnitsBodySchema, { 201: { description: 'The draft Units.', schema: unitsDraftSchema } }, USED_BY),
    handle: async ({ services, caller, body }) => ({
      status: 201,
      body: renderUnitsDraft(await services.drafts.units.create(caller.user.id, parseNewUnits(body))),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/units/:ctId/`,
    requirement: 'read',
    doc: oneDoc('One Units of yours, or a published one', unitsDraftSchema),
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderUnitsDraft(await services.drafts.units.get(caller.user.id, params.ctId)),
    }),
  }),
  route({
    method: 'patch',
    path: `${BASE}/units/:ctId/`,
    requirement: 'build',
    doc: bodyDoc(
      'Edit a draft Units (published: 409)',
      unitsUpdateBodySchema,
      { 200: { description: 'The edited draft.', schema: unitsDraftSchema } },
      'Components written before keep the unit text they stored.',
    ),
    handle: async ({ services, caller, params, body }) => ({
      status: 200,
      body: renderUnitsDraft(await services.drafts.units.update(caller.user.id, params.ctId, parseUnitsFields(body))),
    }),
  }),
  route({
    method: 'post',
    path: `${BASE}/units/:ctId/publish/`,
    requirement: 'build',
    doc: {
      summary: 'Publish a draft Units: in a public project everyone may read it and name it (published: 409)',
      tag: TAG,
      responses: { 200: { description: 'The published Units.', schema: unitsDraftSchema } },
    },
    handle: async ({ services, caller, params }) => ({
      status: 200,
      body: renderUnitsDraft(await services.drafts.units.publish(caller.user.id, params.ctId)),
    }),
  }),
];
