import type { CellContext, StudioScenario } from './studio-rows';
import type { GraphQLScenario } from './graphql-rows';
import type { Expected } from './oracle';
import type { World } from './world';

/** Units drafts' rows: free to create (no charge), `build` to write, `read` to read; the owner's draft Units is the
 * owner's alone (another user and staff get 404). Spread into drafts-rows.ts. */

const has = (fields: Record<string, unknown>) => expect.objectContaining(fields);
const ok = (status: number, body: unknown): Expected => ({ status, body });
const stranger = (ctx: CellContext) => ctx.caller.who === 'other' || ctx.caller.who === 'staff';
const notYours: Expected = { status: 404, body: expect.objectContaining({ error_type: 'not_found' }) };
const notYoursInGraphQL: Expected = {
  status: 200,
  body: expect.objectContaining({ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'not_found', status: 404 }) })] }),
};
const data = (matcher: unknown): Expected => ({ status: 200, body: { data: matcher } });

const newOwnerUnits = async (world: World) =>
  (await world.app.services.drafts.units.create(world.users.owner.id, { label: 'kg', projectCtId: null })).ctId;

/** The owner's draft Units, made once per world on first use. */
const made = new Map<number, Promise<string>>();
const ownerUnits = (world: World) => {
  const id = world.users.owner.id;
  if (!made.has(id)) made.set(id, newOwnerUnits(world));
  return made.get(id)!;
};

const BASE = '/api/v1/dmgen/units/';

export const UNITS_SCENARIOS: Record<string, StudioScenario> = {
  [`GET ${BASE}`]: { requirement: 'read', expect: () => ok(200, has({ count: expect.any(Number), previous: null, results: expect.any(Array) })) },
  [`POST ${BASE}`]: {
    requirement: 'build',
    body: () => ({ json: { label: 'mmol/L', public: false } }),
    expect: () => ok(201, has({ ct_id: expect.any(String), type: 'units', label: 'mmol/L', published: false })),
  },
  [`GET ${BASE}:ctId/`]: {
    requirement: 'read',
    params: async ({ world }) => ({ ctId: await ownerUnits(world) }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, label: 'kg' }))),
  },
  [`PATCH ${BASE}:ctId/`]: {
    requirement: 'build',
    params: async ({ world }) => ({ ctId: await ownerUnits(world) }),
    body: () => ({ json: { enums: 'kilogram\nkilo' } }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, enums: 'kilogram\nkilo' }))),
  },
  [`POST ${BASE}:ctId/publish/`]: {
    requirement: 'build',
    params: async ({ world }) => ({ ctId: await newOwnerUnits(world) }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, published: true }))),
  },
};

export const UNITS_GRAPHQL_SCENARIOS: Record<string, GraphQLScenario> = {
  draftUnitsList: { requirement: 'read', expect: () => data(has({ count: expect.any(Number), page: 1 })) },
  draftUnits: {
    requirement: 'read',
    args: async ({ world }) => ({ ctId: await ownerUnits(world) }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, label: 'kg' }))),
  },
  createDraftUnits: {
    requirement: 'build',
    args: () => ({ input: { label: 'mmHg' } }),
    expect: () => data(has({ __typename: 'DraftUnits', label: 'mmHg', published: false })),
  },
  updateDraftUnits: {
    requirement: 'build',
    args: async ({ world }) => ({ ctId: await ownerUnits(world), input: { description: 'Mass' } }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, description: 'Mass' }))),
  },
  publishDraftUnits: {
    requirement: 'build',
    args: async ({ world }) => ({ ctId: await newOwnerUnits(world) }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, published: true }))),
  },
};
