import { COMPONENT_SLUGS } from '../../../src/parsers/drafts.parser';
import type { CellContext, StudioScenario } from './studio-rows';
import type { GraphQLScenario } from './graphql-rows';
import type { Expected } from './oracle';
import type { Payload } from './transport';
import { UNITS_GRAPHQL_SCENARIOS, UNITS_SCENARIOS } from './units-rows';
import { nextName, type World } from './world';

/** The drafts API's rows: the owner's drafts are the owner's alone (another user and staff get 404); minting a
 * component, a cluster or a model charges the assembly's price (100, 100, 500); the vocabulary is `build`. Kept apart from
 * studio-rows.ts (which spreads these in) and free of its values, so neither module needs the other at load. */

const MINT_CREDITS = 100;
const CLUSTER_CREDITS = 100;
const MODEL_CREDITS = 500;
const json = (value: unknown): Payload => ({ json: value });
const ok = (status: number, body: unknown): Expected => ({ status, body });
const has = (fields: Record<string, unknown>) => expect.objectContaining(fields);
const notYours: Expected = { status: 404, body: expect.objectContaining({ error_type: 'not_found' }) };
const stranger = (ctx: CellContext) => ctx.caller.who === 'other' || ctx.caller.who === 'staff';
const page = () => ok(200, has({ count: expect.any(Number), previous: null, results: expect.any(Array) }));

/** Fixtures made once per world, on first use: the owner's draft component of each type, cluster and model. */
const made = new Map<string, Promise<string>>();
function once(world: World, key: string, make: () => Promise<string>): Promise<string> {
  const id = `${world.users.owner.id}:${key}`;
  if (!made.has(id)) made.set(id, make());
  return made.get(id)!;
}

const ownerComponent = (world: World, dataType: string) =>
  once(world, dataType, async () => {
    const { db, catalog } = world.app.services;
    const minted = await db.transaction((m) =>
      catalog.createComponent(m, { label: `Matrix ${dataType}`, dataType, status: 'draft', ownerId: world.users.owner.id }),
    );
    return minted.ctId;
  });

const ownerCluster = (world: World) =>
  once(world, 'cluster', async () => {
    const { db, catalog } = world.app.services;
    return (
      await db.transaction((m) => catalog.createCluster(m, { label: 'Matrix cluster', status: 'draft', ownerId: world.users.owner.id, children: [] }))
    ).ctId;
  });

/** A published library cluster every caller may root a model in; its ct_id is fixed so a (sync) body can name it. */
const LIBRARY_ROOT = 'matrixlibraryrootcluster';
const libraryCluster = (world: World) =>
  once(world, 'library-cluster', async () => {
    const { db, catalog } = world.app.services;
    const input = { ctId: LIBRARY_ROOT, label: 'Matrix library root', status: 'published' as const, ownerId: null, children: [] };
    return (await db.transaction((m) => catalog.createCluster(m, input))).ctId;
  });

async function newOwnerModel(world: World): Promise<string> {
  const { db, catalog } = world.app.services;
  const root = await libraryCluster(world);
  const [{ id }] = await db.query('SELECT id FROM clusters WHERE ct_id = $1', [root]);
  return (
    await db.transaction((m) =>
      catalog.createDataModel(m, { title: 'Matrix draft', rootClusterId: Number(id), published: false, ownerId: world.users.owner.id }),
    )
  ).ctId;
}

const ownerModel = (world: World) => once(world, 'model', () => newOwnerModel(world));

const NUMBER_TYPES = ['XdCount', 'XdQuantity', 'XdFloat', 'XdDouble'];

function componentRows(slug: string, dataType: string): Record<string, StudioScenario> {
  const base = `/api/v1/dmgen/${slug}/`;
  return {
    [`GET ${base}`]: { requirement: 'read', expect: page },
    [`POST ${base}`]: {
      requirement: 'build',
      // Number drafts need units (the studio's rule); the others take none.
      body: () => json({ label: `Matrix ${slug}`, public: false, ...(NUMBER_TYPES.includes(dataType) ? { units: 'items' } : {}) }),
      charges: () => MINT_CREDITS,
      expect: () => ok(201, has({ ct_id: expect.any(String), component_type: dataType, published: false })),
    },
    [`GET ${base}:ctId/`]: {
      requirement: 'read',
      params: async ({ world }) => ({ ctId: await ownerComponent(world, dataType) }),
      expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, published: false }))),
    },
    [`PATCH ${base}:ctId/`]: {
      requirement: 'build',
      params: async ({ world }) => ({ ctId: await ownerComponent(world, dataType) }),
      body: () => json({ description: 'Edited in the matrix' }),
      expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, description: 'Edited in the matrix' }))),
    },
  };
}

export const DRAFTS_SCENARIOS: Record<string, StudioScenario> = {
  ...Object.assign({}, ...Object.entries(COMPONENT_SLUGS).map(([slug, dataType]) => componentRows(slug, dataType))),
  'GET /api/v1/dmgen/clusters/': { requirement: 'read', expect: page },
  'POST /api/v1/dmgen/clusters/': {
    requirement: 'build',
    body: () => json({ label: 'Matrix new cluster', public: false }),
    charges: () => CLUSTER_CREDITS,
    expect: () => ok(201, has({ ct_id: expect.any(String), children: [] })),
  },
  'GET /api/v1/dmgen/clusters/:ctId/': {
    requirement: 'read',
    params: async ({ world }) => ({ ctId: await ownerCluster(world) }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId }))),
  },
  'PATCH /api/v1/dmgen/clusters/:ctId/': {
    requirement: 'build',
    params: async ({ world }) => ({ ctId: await ownerCluster(world) }),
    body: () => json({ description: 'Edited in the matrix' }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, description: 'Edited in the matrix' }))),
  },
  'GET /api/v1/dmgen/dms/': { requirement: 'read', expect: page },
  'POST /api/v1/dmgen/dms/': {
    requirement: 'build',
    params: async ({ world }) => ({ root: await libraryCluster(world) }),
    body: () => json({ title: 'Matrix new model', data: LIBRARY_ROOT, publisher: 'Matrix' }),
    charges: () => MODEL_CREDITS,
    expect: () => ok(201, has({ ct_id: expect.any(String), data: LIBRARY_ROOT, publisher: 'Matrix', published: false })),
  },
  'GET /api/v1/dmgen/dms/:ctId/': {
    requirement: 'read',
    params: async ({ world }) => ({ ctId: await ownerModel(world) }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, published: false }))),
  },
  'PATCH /api/v1/dmgen/dms/:ctId/': {
    requirement: 'build',
    params: async ({ world }) => ({ ctId: await ownerModel(world) }),
    body: () => json({ publisher: 'Matrix' }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, publisher: 'Matrix' }))),
  },
  'POST /api/v1/dmgen/dms/:ctId/publish/': {
    requirement: 'build',
    // The model is minted straight into the catalog (no charging door): publishing charges it, 500.
    charges: () => MODEL_CREDITS,
    params: async ({ world }) => ({ ctId: await newOwnerModel(world) }),
    expect: (ctx, { params }) => (stranger(ctx) ? notYours : ok(200, has({ ct_id: params.ctId, published: true }))),
  },
  'GET /api/v1/dmgen/namespaces/': { requirement: 'read', expect: page },
  'POST /api/v1/dmgen/namespaces/': {
    requirement: 'build',
    body: () => json({ abbrev: nextName('mx'), uri: 'https://example.org/matrix/' }),
    expect: () => ok(201, has({ id: expect.any(Number), uri: 'https://example.org/matrix/' })),
  },
  'GET /api/v1/dmgen/predicates/': { requirement: 'read', expect: page },
  'POST /api/v1/dmgen/predicates/': {
    requirement: 'build',
    body: () => json({ ns_abbrev: 'skos', class_name: nextName('matrixMatch') }),
    expect: () => ok(201, has({ id: expect.any(Number), ns_prefix: 'skos' })),
  },
  'GET /api/v1/dmgen/pred-objs/': { requirement: 'read', expect: page },
  'POST /api/v1/dmgen/pred-objs/': {
    requirement: 'build',
    // Predicate 1 is rdfs:seeAlso, the first one migration 0012 seeds.
    body: () => json({ predicate: 1, object_uri: 'https://example.org/matrix/object', po_name: 'matrix' }),
    expect: () => ok(201, has({ id: expect.any(Number), predicate: 1 })),
  },
  ...UNITS_SCENARIOS,
};

const data = (matcher: unknown): Expected => ({ status: 200, body: { data: matcher } });
const notYoursInGraphQL: Expected = {
  status: 200,
  body: expect.objectContaining({ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'not_found', status: 404 }) })] }),
};
const graphqlPage = () => data(has({ count: expect.any(Number), page: 1 }));

/** The drafts API's GraphQL fields (drafts.resolver.ts), spread into GRAPHQL_SCENARIOS. */
export const DRAFTS_GRAPHQL_SCENARIOS: Record<string, GraphQLScenario> = {
  draftComponents: { requirement: 'read', args: () => ({ dataType: 'XdString' }), expect: graphqlPage },
  draftComponent: {
    requirement: 'read',
    args: async ({ world }) => ({ dataType: 'XdString', ctId: await ownerComponent(world, 'XdString') }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, dataType: 'XdString' }))),
  },
  createDraftComponent: {
    requirement: 'build',
    args: () => ({ input: { dataType: 'XdCount', label: 'Matrix count', units: 'items' } }),
    charges: () => MINT_CREDITS,
    expect: () => data(has({ __typename: 'DraftComponentMint', estimatedCostCredits: MINT_CREDITS })),
  },
  updateDraftComponent: {
    requirement: 'build',
    args: async ({ world }) => ({ dataType: 'XdString', ctId: await ownerComponent(world, 'XdString'), input: { enums: ['a', 'b'] } }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, enums: ['a', 'b'] }))),
  },
  draftClusters: { requirement: 'read', expect: graphqlPage },
  draftCluster: {
    requirement: 'read',
    args: async ({ world }) => ({ ctId: await ownerCluster(world) }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId }))),
  },
  createDraftCluster: {
    requirement: 'build',
    args: () => ({ input: { label: 'Matrix GraphQL cluster' } }),
    charges: () => CLUSTER_CREDITS,
    expect: () => data(has({ __typename: 'DraftCluster', published: false })),
  },
  updateDraftCluster: {
    requirement: 'build',
    args: async ({ world }) => ({ ctId: await ownerCluster(world), input: { label: 'Matrix cluster' } }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, label: 'Matrix cluster' }))),
  },
  draftModels: { requirement: 'read', expect: graphqlPage },
  draftModel: {
    requirement: 'read',
    args: async ({ world }) => ({ ctId: await ownerModel(world) }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, published: false }))),
  },
  createDraftModel: {
    requirement: 'build',
    args: async ({ world }) => ({ input: { title: 'Matrix GraphQL model', data: await libraryCluster(world), language: 'en-GB' } }),
    charges: () => MODEL_CREDITS,
    expect: () => data(has({ __typename: 'DraftModel', rootClusterCtId: LIBRARY_ROOT, published: false })),
  },
  updateDraftModel: {
    requirement: 'build',
    args: async ({ world }) => ({ ctId: await ownerModel(world), input: { rights: 'CC0' } }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId }))),
  },
  publishDraftModel: {
    requirement: 'build',
    charges: () => MODEL_CREDITS,
    args: async ({ world }) => ({ ctId: await newOwnerModel(world) }),
    expect: (ctx, args) => (stranger(ctx) ? notYoursInGraphQL : data(has({ ctId: args.ctId, published: true }))),
  },
  semanticNamespaces: { requirement: 'read', expect: graphqlPage },
  createSemanticNamespace: {
    requirement: 'build',
    args: () => ({ input: { abbrev: nextName('gq'), uri: 'https://example.org/matrix-graphql#' } }),
    expect: () => data(has({ __typename: 'SemanticNamespace', uri: 'https://example.org/matrix-graphql#' })),
  },
  semanticPredicates: { requirement: 'read', expect: graphqlPage },
  createSemanticPredicate: {
    requirement: 'build',
    args: () => ({ input: { nsAbbrev: 'skos', className: nextName('graphqlMatch') } }),
    expect: () => data(has({ __typename: 'SemanticPredicate', nsPrefix: 'skos' })),
  },
  predObjs: { requirement: 'read', expect: graphqlPage },
  createPredObj: {
    requirement: 'build',
    args: () => ({ input: { predicate: 1, objectUri: 'https://example.org/matrix/graphql' } }),
    expect: () => data(has({ __typename: 'PredObj', predicateId: 1 })),
  },
  ...UNITS_GRAPHQL_SCENARIOS,
};
