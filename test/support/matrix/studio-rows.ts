import type { Requirement } from '../../../src/services/auth.service';
import type { CallerSpec } from './callers';
import type { Expected } from './oracle';
import type { Payload } from './transport';
import { DRAFTS_SCENARIOS } from './drafts-rows';
import { VSL_SCENARIOS } from './vsl-rows';
import { nextName, type World } from './world';

/** What a cell knows while it is built: its caller, whether the oracle lets it through, the fixtures. */
export interface CellContext {
  caller: CallerSpec;
  authorized: boolean;
  world: World;
}

/** How to call one operation once authorization has let the caller through, and what it then answers. */
export interface StudioScenario {
  /** What the contract says the operation needs; the route's declaration must say the same. */
  requirement: Requirement;
  params?: (ctx: CellContext) => Promise<Record<string, string>> | Record<string, string>;
  query?: string;
  body?: (ctx: CellContext) => Payload;
  /** Credits the operation charges: a key then needs `spend`, and one at its limit is refused. */
  charges?: (world: World) => number;
  /** The operation ends the caller's session: the cell signs in anew first. */
  consumesSession?: boolean;
  expect: (ctx: CellContext, sent: { params: Record<string, string>; payload?: Payload }) => Expected;
}

export const notFound = (what: string): Expected => ({ status: 404, body: { error: `${what} not found.`, error_type: 'not_found' } });

/** A resource of the owner seen by someone else: another user never; staff only where `staffSees`. */
export const foreign = (ctx: CellContext, staffSees: boolean) => ctx.caller.who === 'other' || (ctx.caller.who === 'staff' && !staffSees);

/** A reader without valid studio credentials: public catalog reads answer as to anyone (no drafts). */
const anonymousReader = (ctx: CellContext) => ctx.caller.studio.kind !== 'key' && ctx.caller.studio.kind !== 'session';

/** The owner's draft: hidden from anonymous readers, other users and staff alike. */
export const draftHidden = (ctx: CellContext) => anonymousReader(ctx) || foreign(ctx, false);

export const userOf = (ctx: CellContext) => ctx.world.users[ctx.caller.who ?? 'owner'];

/** The owner's own fresh key where the owner may act on it; otherwise the victim key, which must survive. */
export const keyFor = async (ctx: CellContext) =>
  String(ctx.authorized && ctx.caller.who === 'owner' ? await ctx.world.freshOwnerKey() : ctx.world.victimKeyId);

const json = (value: unknown): Payload => ({ json: value });
const ok = (status: number, body?: unknown): Expected => (body === undefined ? { status } : { status, body });
const any = (type: unknown) => expect.any(type);
const has = (fields: Record<string, unknown>) => expect.objectContaining(fields);

const ownerOnly = (ctx: CellContext, what: string, staffSees: boolean, success: Expected) => (foreign(ctx, staffSees) ? notFound(what) : success);
const generationForbidden = (verb: string): Expected => ({
  status: 403,
  body: { error: `Only the model’s owner or staff can ${verb}.`, error_type: 'permission_denied' },
});

const artifact = (contentType: string): StudioScenario => ({
  requirement: 'public',
  params: ({ world }) => ({ ctId: world.draftDm }),
  expect: (ctx) => (draftHidden(ctx) ? notFound('Data model') : { status: 200, contentType }),
});

/** A public read of a published model's file: every caller the route lets through gets it. */
const publicArtifact = (contentType: string, params?: (world: World) => Record<string, string>): StudioScenario => ({
  requirement: 'public',
  params: ({ world }) => params?.(world) ?? { ctId: world.publishedDm },
  expect: () => ({ status: 200, contentType }),
});

const CSV = 'name,age\nAda,36\n';

/** An instance of the published model with nothing in it: invalid, so validated (and charged) but never signed. */
const emptyInstance = (world: World) => `<sdc4:dm-${world.publishedDm} xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"/>`;

/** One scenario per REST route of Interface A, keyed `METHOD path` exactly as in STUDIO_ROUTES. */
export const STUDIO_SCENARIOS: Record<string, StudioScenario> = {
  'POST /api/v1/auth/login/': {
    requirement: 'public',
    body: ({ world }) => json({ email: world.loginUser.email, password: world.loginUser.password }),
    expect: ({ world }) => ok(200, has({ user: has({ email: world.loginUser.email }), csrf_token: any(String) })),
  },
  'POST /api/v1/auth/logout/': {
    requirement: 'session',
    consumesSession: true,
    expect: () => ok(200, { detail: 'Signed out.' }),
  },
  'GET /api/v1/auth/me/': {
    requirement: 'read',
    expect: (ctx) => ok(200, { user: has({ id: userOf(ctx).id, email: userOf(ctx).email }), via: ctx.caller.studio.kind }),
  },
  'PATCH /api/v1/auth/profile/': {
    requirement: 'session',
    body: () => json({ name: 'Matrix Person' }),
    expect: (ctx) => ok(200, has({ id: userOf(ctx).id, name: 'Matrix Person' })),
  },
  'GET /api/v1/auth/api-tokens/': {
    requirement: 'read',
    expect: () => ok(200, any(Array)),
  },
  'POST /api/v1/auth/api-tokens/': {
    requirement: 'session',
    body: () => json({ name: nextName('matrix-key') }),
    expect: (_ctx, sent) => ok(201, has({ name: (sent.payload as { json: { name: string } }).json.name, key: any(String) })),
  },
  'POST /api/v1/auth/api-tokens/:id/rotate/': {
    requirement: 'session',
    params: async (ctx) => ({ id: await keyFor(ctx) }),
    expect: (ctx) => ownerOnly(ctx, 'API key', false, ok(201, has({ key: any(String), status: 'active' }))),
  },
  'POST /api/v1/auth/api-tokens/:id/revoke/': {
    requirement: 'read',
    params: async (ctx) => ({ id: await keyFor(ctx) }),
    expect: (ctx, sent) => ownerOnly(ctx, 'API key', false, ok(200, { revoked: true, key: has({ id: Number(sent.params.id), status: 'revoked' }) })),
  },
  'POST /api/v1/auth/token/': {
    requirement: 'session',
    expect: () => ok(201, has({ token: any(String), prefix: any(String) })),
  },
  'GET /api/v1/wallet/': {
    requirement: 'read',
    expect: () => ok(200, has({ balance_credits: any(Number) })),
  },
  'PATCH /api/v1/wallet/auto-reload/': {
    requirement: 'session',
    body: () => json({ enabled: false }),
    expect: () => ok(200, has({ auto_reload: has({ enabled: false }) })),
  },
  'POST /api/v1/dmgen/assemble/estimate/': {
    requirement: 'build',
    body: ({ world }) => json(world.assemblyBody(false)),
    expect: () => ok(200, has({ mode: 'reuse', total_credits: 500 })),
  },
  'POST /api/v1/dmgen/assemble/': {
    requirement: 'build',
    body: ({ world }) => json(world.assemblyBody(false)),
    charges: () => 500,
    expect: () => ok(200, has({ ct_id: any(String), published: false, generated: false })),
  },
  'GET /api/v1/catalog/': {
    requirement: 'public',
    expect: () => ok(200, has({ projects: any(Array) })),
  },
  'GET /api/v1/catalog/components/': {
    requirement: 'public',
    expect: () => ok(200, has({ results: any(Array) })),
  },
  'GET /api/v1/catalog/clusters/': {
    requirement: 'public',
    expect: () => ok(200, has({ results: any(Array) })),
  },
  'GET /api/v1/catalog/dms/': {
    requirement: 'public',
    expect: () => ok(200, any(Array)),
  },
  'GET /api/v1/catalog/dm/:ctId/': {
    requirement: 'public',
    params: ({ world }) => ({ ctId: world.draftDm }),
    expect: (ctx) => (draftHidden(ctx) ? notFound('Data model') : ok(200, has({ ct_id: ctx.world.draftDm, published: false }))),
  },
  'GET /api/v1/catalog/dm/:ctId/package/': {
    requirement: 'public',
    params: ({ world }) => ({ ctId: world.draftDm }),
    expect: (ctx) =>
      draftHidden(ctx)
        ? notFound('Data model')
        : {
            status: 404,
            body: { error: 'The package of this model has not been generated yet.', error_type: 'not_generated', dm_ct_id: ctx.world.draftDm },
          },
  },
  'GET /api/v1/catalog/dm/:ctId/app/': {
    requirement: 'read',
    params: ({ world }) => ({ ctId: world.publishedDm }),
    query: '?profile=os',
    expect: (ctx) =>
      ctx.caller.who === 'other'
        ? { status: 403, body: { error: 'Only the model’s owner or staff can download its application.', error_type: 'permission_denied' } }
        : { status: 200, contentType: 'application/zip' },
  },
  'GET /api/v1/catalog/dm/:ctId/xsd/': artifact('application/xml'),
  'GET /api/v1/catalog/dm/:ctId/ttl/': artifact('text/turtle'),
  'GET /api/v1/catalog/dm/:ctId/skeleton/': publicArtifact('application/xml'),
  'GET /api/v1/catalog/dm/:ctId/html/': artifact('text/html'),
  'GET /api/v1/catalog/ontologies/sdc4/': {
    requirement: 'public',
    expect: () => ({ status: 200, contentType: 'application/rdf+xml' }),
  },
  'GET /api/v1/catalog/dcat.ttl': {
    requirement: 'public',
    expect: () => ({ status: 200, contentType: 'text/turtle' }),
  },
  'GET /api/v1/catalog/dcat.jsonld': {
    requirement: 'public',
    expect: () => ({ status: 200, contentType: 'application/ld+json' }),
  },
  'GET /api/v1/auth/modeler/': {
    requirement: 'read',
    expect: (ctx) => ok(200, has({ email: userOf(ctx).email, project_ct_id: any(String), project_is_public: true })),
  },
  'GET /api/v1/dmgen/projects/': {
    requirement: 'read',
    query: '?page_size=200',
    expect: () => ok(200, has({ count: 2, next: null, results: any(Array) })),
  },
  'GET /api/v1/dmgen/components/': {
    requirement: 'read',
    query: '?status=published&page_size=10',
    expect: () => ok(200, has({ count: any(Number), previous: null, results: any(Array) })),
  },
  'GET /.well-known/sdcstudio-signing-keys.json': {
    requirement: 'public',
    expect: () =>
      ok(200, {
        issuer: any(String),
        keys: [
          has({ kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA', retired_at: null }),
          has({ kty: 'EC', crv: 'P-256', alg: 'ES256', status: 'active' }),
        ],
      }),
  },
  'GET /.well-known/sdc-signing-key': {
    requirement: 'public',
    expect: () => ok(200, has({ kty: 'OKP', crv: 'Ed25519', kid: any(String) })),
  },
  'GET /api/v1/jobs/': {
    requirement: 'read',
    expect: () => ok(200, any(Array)),
  },
  'GET /api/v1/jobs/:ctId/': {
    requirement: 'read',
    params: ({ world }) => ({ ctId: world.jobs.owner.ctId }),
    expect: (ctx) => ownerOnly(ctx, 'Job', true, ok(200, has({ ct_id: ctx.world.jobs.owner.ctId, kind: 'upload' }))),
  },
  'GET /api/v1/dmgen/tasks/:taskId/': {
    requirement: 'read',
    // A task is found by its queue id or its job's ct_id; the world's jobs are known by ct_id.
    params: ({ world }) => ({ taskId: world.jobs.owner.ctId }),
    expect: (ctx) => ownerOnly(ctx, 'Task', true, ok(200, has({ job_ct_id: ctx.world.jobs.owner.ctId, status: any(String) }))),
  },
  'POST /api/v1/dmgen/dms/:ctId/generate/': {
    requirement: 'build',
    params: ({ world }) => ({ ctId: world.publishedDm }),
    query: '?async=1',
    expect: (ctx) =>
      ctx.caller.who === 'other'
        ? generationForbidden('generate it')
        : ok(202, has({ job_ct_id: any(String), job: has({ kind: 'generate_package', status: 'queued' }) })),
  },
  'POST /api/v1/dmgen/dms/:ctId/generate_app/': {
    requirement: 'spend',
    params: ({ world }) => ({ ctId: world.publishedDm }),
    charges: (world) => world.app.services.settings.appDownloadCredits,
    expect: (ctx) =>
      ctx.caller.who === 'other' ? generationForbidden('generate it') : ok(200, has({ dm_ct_id: ctx.world.publishedDm, profile: 'os' })),
  },
  'POST /api/v1/uploader/api/data-sources/': {
    requirement: 'build',
    body: () => {
      const form = new FormData();
      form.append('file', new Blob([CSV]), 'matrix.csv');
      return { form };
    },
    // A CSV upload is priced like the assembly it mints: its columns × 100 + the model's 500 (held now).
    charges: () => CSV.split('\n')[0].split(',').length * 100 + 500,
    expect: () => ok(202, has({ data_source_ct_id: any(String), job: has({ kind: 'upload' }) })),
  },
  'GET /api/v1/catalog/dm/:ctId/xml/': publicArtifact('application/xml'),
  'GET /api/v1/catalog/dm/:ctId/json/': publicArtifact('application/json'),
  'GET /api/v1/catalog/dm/:ctId/jsonld/': publicArtifact('application/ld+json'),
  'GET /api/v1/catalog/dm/:ctId/rdf/': publicArtifact('application/rdf+xml'),
  'GET /api/v1/catalog/dm/:ctId/shacl/': publicArtifact('text/turtle'),
  'GET /api/v1/catalog/dm/:ctId/gql/': publicArtifact('application/graphql'),
  'GET /api/v1/catalog/dms/:ctId/artifacts/zip/': publicArtifact('application/zip'),
  'GET /api/v1/catalog/dm/:ctId/sha1/': publicArtifact('text/plain'),
  'GET /dmlib/:file': publicArtifact('application/xml', (world) => ({ file: `dm-${world.publishedDm}.xsd` })),
  ...DRAFTS_SCENARIOS,
  'POST /api/v1/vaas/validate/': {
    requirement: 'spend',
    query: '?mode=strict',
    body: ({ world }) => ({ xml: emptyInstance(world) }),
    charges: (world) => world.app.services.settings.vaas.validationCredits,
    expect: ({ world }) => ok(200, has({ valid: false, schema: has({ ct_id: world.publishedDm }), structural_errors: any(Number) })),
  },
  'POST /api/v1/vaas/validate/sign/': {
    requirement: 'spend',
    body: ({ world }) => ({ xml: emptyInstance(world) }),
    charges: (world) => world.app.services.settings.vaas.validationCredits + world.app.services.settings.vaas.signatureCredits,
    expect: ({ world }) => ok(200, has({ valid: false, signed: false, schema: has({ ct_id: world.publishedDm }) })),
  },
  'GET /api/v1/vaas/packages/:id/': {
    requirement: 'read',
    params: () => ({ id: 'nosuchpackage0000000' }),
    expect: () => ({
      status: 404,
      body: { error: 'Package not found (packages expire; validate again with package=true).', error_type: 'not_found' },
    }),
  },
  ...VSL_SCENARIOS,
};
