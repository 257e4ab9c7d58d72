import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import type { Requirement } from '../../../src/services/auth.service';
import { DRAFTS_GRAPHQL_SCENARIOS } from './drafts-rows';
import { vslGraphqlScenarios } from './vsl-rows';
import { graphqlExtensions } from '../graphql-errors';
import type { Expected } from './oracle';
import { draftHidden, foreign, keyFor, notFound, userOf, type CellContext } from './studio-rows';
import type { GraphQLRequest, UploadFile } from './transport';
import { nextName, type World } from './world';

type OperationType = 'query' | 'mutation' | 'subscription';

export interface RootField {
  operation: OperationType;
  field: GraphQLField<unknown, unknown>;
}

export function rootFields(schema: GraphQLSchema): RootField[] {
  const of = (operation: OperationType, type: ReturnType<GraphQLSchema['getQueryType']>) =>
    type ? Object.values(type.getFields()).map((field) => ({ operation, field })) : [];
  return [...of('query', schema.getQueryType()), ...of('mutation', schema.getMutationType()), ...of('subscription', schema.getSubscriptionType())];
}

const DUMMY_FILE: UploadFile = { name: 'matrix.txt', content: 'matrix' };

/** A value of an input type built from the type alone: required input fields filled, lists of one. */
function dummy(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return dummy(type.ofType);
  if (isListType(type)) return [dummy(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((f) => isNonNullType(f.type))
        .map((f) => [f.name, dummy(f.type)]),
    );
  }
  switch (type.name) {
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTimeISO':
      return new Date().toISOString();
    case 'Upload':
      return DUMMY_FILE;
    default:
      return 'matrix';
  }
}

const leaves = (type: GraphQLObjectType) =>
  Object.values(type.getFields())
    .filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)))
    .map((f) => f.name);

/** `__typename` and every scalar leaf of the field's type; for a union, the leaves of each member. */
function selection(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (isObjectType(named)) return `{ ${['__typename', ...leaves(named)].join(' ')} }`;
  if (isUnionType(named)) {
    // Same-named leaves of different types in two members cannot share a selection set: they are left out.
    const typeOf = new Map<string, Set<string>>();
    for (const member of named.getTypes())
      for (const name of leaves(member)) typeOf.set(name, (typeOf.get(name) ?? new Set()).add(String(member.getFields()[name].type)));
    const fragments = named.getTypes().map(
      (member) =>
        `... on ${member.name} { __typename ${leaves(member)
          .filter((name) => typeOf.get(name)!.size === 1)
          .join(' ')} }`,
    );
    return `{ ${fragments.join(' ')} }`;
  }
  return '{ __typename }';
}

/** The operation document of one root field: required arguments from `values` or typed dummies, files apart. */
export function buildRequest(root: RootField, values: Record<string, unknown>): GraphQLRequest {
  const definitions: string[] = [];
  const passed: string[] = [];
  const variables: Record<string, unknown> = {};
  const files: GraphQLRequest['files'] = [];
  for (const arg of root.field.args) {
    const value = arg.name in values ? values[arg.name] : isNonNullType(arg.type) ? dummy(arg.type) : undefined;
    if (value === undefined) continue;
    definitions.push(`$${arg.name}: ${String(arg.type)}`);
    passed.push(`${arg.name}: $${arg.name}`);
    if (getNamedType(arg.type).name === 'Upload') {
      const list = Array.isArray(value) ? (value as UploadFile[]) : null;
      variables[arg.name] = list ? list.map(() => null) : null;
      if (list) list.forEach((file, i) => files.push({ path: `variables.${arg.name}.${i}`, file }));
      else files.push({ path: `variables.${arg.name}`, file: value as UploadFile });
    } else variables[arg.name] = value;
  }
  const head = definitions.length ? `(${definitions.join(', ')})` : '';
  const call = passed.length ? `(${passed.join(', ')})` : '';
  return { query: `${root.operation} Matrix${head} { ${root.field.name}${call} ${selection(root.field.type)} }`, variables, files };
}

/** How to call one field once authorized, and what it answers (in the REST vocabulary for errors). */
export interface GraphQLScenario {
  /** What the contract says the field needs (`app_key`: an Interface B key); the field's @Requires must agree. */
  requirement: Requirement | 'app_key';
  args?: (ctx: CellContext) => Promise<Record<string, unknown>> | Record<string, unknown>;
  charges?: (world: World) => number;
  consumesSession?: boolean;
  /** For a stream that speaks only on a change: makes one happen. */
  poke?: (ctx: CellContext) => () => Promise<void>;
  expect: (ctx: CellContext, args: Record<string, unknown>) => Expected;
}

/** A successful field: `{data: <field>}`. */
const data = (matcher: unknown): Expected => ({ status: 200, body: { data: matcher } });
const has = (fields: Record<string, unknown>) => expect.objectContaining(fields);
const any = (type: unknown) => expect.any(type);

/** An Interface A or B error as GraphQL carries it: the message, the code and fields in `extensions`. */
export function asGraphQL(expected: Expected): Expected {
  const body = expected.body as { error?: unknown; error_type?: string; [f: string]: unknown } | undefined;
  if (!body || typeof body.error_type !== 'string') return expected;
  const { error, error_type, ...fields } = body;
  return { status: 200, body: { errors: [{ message: error, extensions: graphqlExtensions(error_type, expected.status, fields) }] } };
}

/** An Interface B endpoint error (`AppError`) in GraphQL. */
const appError = (status: number, code: string, message: string, details: Record<string, unknown>): Expected => ({
  status: 200,
  body: { errors: [{ message, extensions: graphqlExtensions(code, status, { details }) }] },
});

const ownerOnly = (ctx: CellContext, what: string, staffSees: boolean, success: Expected) =>
  foreign(ctx, staffSees) ? asGraphQL(notFound(what)) : success;
const generationForbidden = asGraphQL({
  status: 403,
  body: { error: 'Only the model’s owner or staff can generate it.', error_type: 'permission_denied' },
});

const assemblyInput = (world: World) => ({
  title: 'Matrix model draft',
  data: { label: 'Matrix root', components: [{ ctId: world.libraryComponentCtId }] },
  publish: false,
  generate: false,
});

const NOT_A_FILE: UploadFile = { name: 'notes.txt', content: 'not a package' };

/** One scenario per root field of the schema, keyed by field name. */
export const GRAPHQL_SCENARIOS: Record<string, GraphQLScenario> = {
  me: {
    requirement: 'read',
    expect: (ctx) => data(has({ id: userOf(ctx).id, email: userOf(ctx).email })),
  },
  apiKeys: {
    requirement: 'read',
    expect: () => data(any(Array)),
  },
  wallet: {
    requirement: 'read',
    expect: () => data(has({ balanceCredits: any(Number) })),
  },
  catalogIndex: {
    requirement: 'public',
    expect: () => data(has({ __typename: 'CatalogIndex' })),
  },
  catalogComponents: {
    requirement: 'public',
    expect: () => data(has({ count: any(Number) })),
  },
  catalogClusters: {
    requirement: 'public',
    expect: () => data(has({ count: any(Number) })),
  },
  catalogModels: {
    requirement: 'public',
    expect: () => data(any(Array)),
  },
  catalogModel: {
    requirement: 'public',
    args: ({ world }) => ({ ctId: world.draftDm }),
    expect: (ctx) => (draftHidden(ctx) ? asGraphQL(notFound('Data model')) : data(has({ ctId: ctx.world.draftDm, published: false }))),
  },
  modeler: {
    requirement: 'read',
    expect: (ctx) => data(has({ email: userOf(ctx).email })),
  },
  projects: {
    requirement: 'read',
    expect: () => data(has({ count: 2 })),
  },
  job: {
    requirement: 'read',
    args: ({ world }) => ({ ctId: world.jobs.owner.ctId }),
    expect: (ctx) => ownerOnly(ctx, 'Job', true, data(has({ ctId: ctx.world.jobs.owner.ctId, kind: 'upload' }))),
  },
  jobs: {
    requirement: 'read',
    expect: () => data(any(Array)),
  },
  estimate: {
    requirement: 'build',
    args: ({ world }) => ({ input: assemblyInput(world) }),
    expect: () => data(has({ mode: 'reuse', totalCredits: 500 })),
  },
  login: {
    requirement: 'public',
    args: ({ world }) => ({ email: world.loginUser.email, password: world.loginUser.password }),
    expect: () => data(has({ csrfToken: any(String) })),
  },
  logout: {
    requirement: 'session',
    consumesSession: true,
    expect: () => data(true),
  },
  updateProfile: {
    requirement: 'session',
    args: () => ({ input: { name: 'Matrix Person' } }),
    expect: (ctx) => data(has({ id: userOf(ctx).id, name: 'Matrix Person' })),
  },
  createApiKey: {
    requirement: 'session',
    args: () => ({ input: { name: nextName('matrix-gql-key') } }),
    expect: (_ctx, args) => data(has({ name: (args.input as { name: string }).name, key: any(String) })),
  },
  rotateApiKey: {
    requirement: 'session',
    args: async (ctx) => ({ id: Number(await keyFor(ctx)) }),
    expect: (ctx) => ownerOnly(ctx, 'API key', false, data(has({ key: any(String), status: 'active' }))),
  },
  revokeApiKey: {
    requirement: 'read',
    args: async (ctx) => ({ id: Number(await keyFor(ctx)) }),
    expect: (ctx, args) => ownerOnly(ctx, 'API key', false, data(has({ id: args.id, status: 'revoked' }))),
  },
  generateLegacyKey: {
    requirement: 'session',
    expect: () => data(has({ token: any(String) })),
  },
  updateAutoReload: {
    requirement: 'session',
    args: () => ({ input: { enabled: false } }),
    expect: () => data(has({ balanceCredits: any(Number) })),
  },
  assemble: {
    requirement: 'build',
    args: ({ world }) => ({ input: assemblyInput(world) }),
    charges: () => 500,
    expect: () => data(has({ __typename: 'BuiltModel', published: false, generated: false })),
  },
  generatePackage: {
    requirement: 'build',
    args: ({ world }) => ({ dmCtId: world.publishedDm, async: true }),
    expect: (ctx) =>
      ctx.caller.who === 'other' ? generationForbidden : data(has({ __typename: 'Job', kind: 'generate_package', status: 'queued' })),
  },
  validateInstance: {
    requirement: 'spend',
    args: ({ world }) => ({ xml: `<sdc4:dm-${world.publishedDm} xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"/>` }),
    charges: (world) => world.app.services.settings.vaas.validationCredits,
    expect: () => data(has({ __typename: 'VaasResult', valid: false, mode: 'strict', chargedCredits: 1 })),
  },
  signInstance: {
    requirement: 'spend',
    args: ({ world }) => ({ xml: `<sdc4:dm-${world.publishedDm} xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"/>` }),
    charges: (world) => world.app.services.settings.vaas.validationCredits + world.app.services.settings.vaas.signatureCredits,
    expect: () => data(has({ __typename: 'VaasResult', valid: false, mode: 'recover', chargedCredits: 1 })),
  },
  generateApp: {
    requirement: 'spend',
    args: ({ world }) => ({ dmCtId: world.publishedDm }),
    charges: (world) => world.app.services.settings.appDownloadCredits,
    expect: (ctx) =>
      ctx.caller.who === 'other'
        ? generationForbidden
        : data(has({ __typename: 'Generation', modelUrl: expect.stringContaining(ctx.world.publishedDm), profile: 'os' })),
  },
  uploadDataSource: {
    requirement: 'build',
    args: () => ({ file: { name: 'matrix.csv', content: 'name,age\nAda,36\n' } }),
    charges: () => 2 * 100 + 500,
    expect: () => data({ __typename: 'DataSourceUpload', columns: 2, estimatedCostCredits: 2 * 100 + 500 }),
  },
  uploadZip: {
    requirement: 'app_key',
    args: () => ({ file: NOT_A_FILE }),
    expect: () => appError(400, 'INVALID_FILE_TYPE', 'Invalid file type: .zip expected.', { filename: 'notes.txt', allowed_extensions: ['.zip'] }),
  },
  uploadSchemaFiles: {
    requirement: 'app_key',
    args: () => ({ files: [NOT_A_FILE] }),
    expect: () => data({ __typename: 'SchemaUploadResult' }),
  },
  uploadRdf: {
    requirement: 'app_key',
    args: () => ({ file: NOT_A_FILE }),
    expect: () =>
      appError(400, 'INVALID_FILE_TYPE', 'Invalid file type: .ttl or .rdf expected.', {
        filename: 'notes.txt',
        allowed_extensions: ['.ttl', '.rdf'],
      }),
  },
  validateXml: {
    requirement: 'app_key',
    expect: () => appError(400, 'XML_REQUIRED', 'No XML provided: send a multipart "file" or a JSON body with "xml_content".', {}),
  },
  jobUpdated: {
    requirement: 'read',
    args: ({ world }) => ({ ctId: world.jobs.owner.ctId }),
    expect: (ctx) => ownerOnly(ctx, 'Job', true, data(has({ ctId: ctx.world.jobs.owner.ctId, kind: 'upload' }))),
  },
  myJobs: {
    requirement: 'read',
    poke: (ctx) => {
      const job = ctx.world.jobs[ctx.caller.who ?? 'owner'];
      return async () => void (await ctx.world.app.services.jobs.update(job.id, { step: nextName('poke') }));
    },
    expect: (ctx) => data(has({ ctId: ctx.world.jobs[ctx.caller.who ?? 'owner'].ctId })),
  },
  modelSkeleton: {
    requirement: 'public',
    args: ({ world }) => ({ ctId: world.publishedDm }),
    expect: (ctx) => data(has({ xml: expect.stringContaining(`dm-${ctx.world.publishedDm}`) })),
  },
  schemaVersions: {
    requirement: 'public',
    args: ({ world }) => ({ ctId: world.publishedDm }),
    expect: (ctx) => data(has({ dmCtId: ctx.world.publishedDm, currentSha256: any(String) })),
  },
  contextualLibrary: {
    requirement: 'public',
    expect: () => data(any(Array)),
  },
  ...DRAFTS_GRAPHQL_SCENARIOS,
  ...vslGraphqlScenarios(asGraphQL),
};
