import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { buildAdminRouter } from '../../src/rest-compat/admin/admin.routes';
import { rows } from '../../src/db/sql';
import { buildGatewaySchema, RESOLVERS } from '../../src/resolvers/schema';
import { APP_API_ROUTES, STUDIO_ROUTES } from '../../src/rest-compat/routes';
import type { Requirement } from '../../src/services/auth.service';
import { startTestApp, type TestApp } from '../support/app';
import { SDC4_REFERENCE_DIR } from '../unit/xml/fixtures';
import { ADMIN_SCENARIOS, APP_SCENARIOS, routerRoutes, type RouterRoute } from '../support/matrix/app-rows';
import { CALLERS, type LiveCaller } from '../support/matrix/callers';
import { runCells, type Cell } from '../support/matrix/cells';
import { asGraphQL, buildRequest, GRAPHQL_SCENARIOS, rootFields, type RootField } from '../support/matrix/graphql-rows';
import {
  adminRefusal,
  APP_GRAPHQL_UNAUTHENTICATED,
  appRefusal,
  chargeRefusal,
  connectionRefused,
  GRAPHQL_SIMPLE_REQUEST_REFUSED,
  studioRefusal,
  type Expected,
  type Refusal,
} from '../support/matrix/oracle';
import { STUDIO_SCENARIOS, type CellContext } from '../support/matrix/studio-rows';
import { sendGraphQL, sendHttp, subscribeOnce } from '../support/matrix/transport';
import { buildWorld, type World } from '../support/matrix/world';

const CONCURRENCY = 8;
const APP_DOWNLOAD_CREDITS = 1000;

let app: TestApp;
let world: World;
let schema: GraphQLSchema;
let appRoutes: RouterRoute[];
let adminRoutes: RouterRoute[];

beforeAll(async () => {
  app = await startTestApp({ appDownloadCredits: APP_DOWNLOAD_CREDITS, schemaCatalogDir: SDC4_REFERENCE_DIR }, { workers: false });
  world = await buildWorld(app);
  schema = await buildGatewaySchema();
  appRoutes = APP_API_ROUTES.map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
  adminRoutes = routerRoutes(buildAdminRouter(app.services));
}, 120_000);
afterAll(() => app?.close());

const fill = (path: string, params: Record<string, string>) =>
  path.replace(/:(\w+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(params[name]);
  });

const refused = (r: Refusal): Expected => ({ status: r.status, body: r.body });

/** The declared requirement of each root field, from type-graphql's @Authorized metadata of the resolvers. */
function fieldRequirements(): Map<string, string> {
  const resolvers = new Set<object>(RESOLVERS);
  return new Map(
    getMetadataStorage()
      .authorizedFields.filter((f) => resolvers.has(f.target))
      .map((f) => [f.fieldName, String(f.roles[0])]),
  );
}

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** A caller's credentials, renewed when the cell signs its session out and authorization lets it through. */
const credentialsFor = async (caller: LiveCaller, consumes: boolean | undefined, authorized: boolean) =>
  consumes && authorized && caller.renew ? caller.renew() : caller.credentials;

function studioCells(): Cell[] {
  return STUDIO_ROUTES.flatMap((route) => {
    const key = routeKey(route.method, route.path);
    const scenario = STUDIO_SCENARIOS[key];
    if (!scenario) return [];
    const method = route.method.toUpperCase();
    const unsafe = method !== 'GET';
    return world.callers.map<Cell>((caller) => ({
      operation: `REST ${key}`,
      caller: caller.spec,
      phase: 'http',
      run: async () => {
        const refusal =
          studioRefusal(route.requirement, caller.spec, { transport: 'rest', unsafe }) ??
          (scenario.charges ? chargeRefusal(caller.spec, scenario.charges(world)) : null);
        const ctx: CellContext = { caller: caller.spec, authorized: refusal === null, world };
        const params = (await scenario.params?.(ctx)) ?? {};
        const payload = scenario.body?.(ctx) ?? (unsafe ? { json: {} } : undefined);
        const credentials = await credentialsFor(caller, scenario.consumesSession, ctx.authorized);
        const observed = await sendHttp(app.url, method, fill(route.path, params) + (scenario.query ?? ''), credentials, payload);
        return { observed, expected: refusal ? refused(refusal) : scenario.expect(ctx, { params, payload }) };
      },
    }));
  });
}

function graphqlCells(requirements: Map<string, string>): Cell[] {
  return rootFields(schema).flatMap((root: RootField) => {
    const name = root.field.name;
    const scenario = GRAPHQL_SCENARIOS[name];
    const requirement = requirements.get(name);
    if (!scenario || !requirement) return [];
    const stream = root.operation === 'subscription';
    return world.callers.map<Cell>((caller) => ({
      operation: `GraphQL ${root.operation} ${name}`,
      caller: caller.spec,
      phase: stream ? 'stream' : 'http',
      run: async () => {
        const spec = caller.spec;
        // A request a cross-site page could make (simple content type, no preflight header) never executes.
        const simple = !stream && spec.studio.kind === 'session' && !spec.studio.csrf;
        let refusal: Expected | null = null;
        if (simple) refusal = GRAPHQL_SIMPLE_REQUEST_REFUSED;
        else if (stream && connectionRefused(spec)) refusal = { status: 4403, body: { reason: 'Forbidden' } };
        else if (requirement === 'app_key') refusal = appRefusal(spec) ? { status: 200, body: { errors: [APP_GRAPHQL_UNAUTHENTICATED] } } : null;
        else {
          const r =
            studioRefusal(requirement as Requirement, spec, { transport: stream ? 'websocket' : 'graphql', unsafe: root.operation === 'mutation' }) ??
            (scenario.charges ? chargeRefusal(spec, scenario.charges(world)) : null);
          refusal = r ? asGraphQL(refused(r)) : null;
        }
        const ctx: CellContext = { caller: spec, authorized: refusal === null, world };
        const args = (await scenario.args?.(ctx)) ?? {};
        const request = buildRequest(root, args);
        const credentials = await credentialsFor(caller, scenario.consumesSession, ctx.authorized);
        const observed = stream
          ? await subscribeOnce(app.url, credentials, request, name, ctx.authorized ? scenario.poke?.(ctx) : undefined)
          : await sendGraphQL(app.url, credentials, request, name, simple);
        return { observed, expected: refusal ?? scenario.expect(ctx, args) };
      },
    }));
  });
}

function appCells(): Cell[] {
  return appRoutes.flatMap((route) => {
    const key = routeKey(route.method, route.path);
    const scenario = APP_SCENARIOS[key];
    if (!scenario) return [];
    return world.callers.map<Cell>((caller) => ({
      operation: `Interface B ${key}`,
      caller: caller.spec,
      phase: 'http',
      run: async () => {
        const refusal = appRefusal(caller.spec);
        const ctx: CellContext = { caller: caller.spec, authorized: refusal === null, world };
        const path = fill(route.path, scenario.params ?? {}) + (scenario.query ?? '');
        const observed = await sendHttp(app.url, route.method, path, caller.credentials, scenario.body?.());
        return { observed, expected: refusal ?? scenario.expect(ctx) };
      },
    }));
  });
}

function adminCells(): Cell[] {
  return adminRoutes.flatMap((route) => {
    const key = routeKey(route.method, route.path);
    const scenario = ADMIN_SCENARIOS[key];
    if (!scenario) return [];
    return world.callers.map<Cell>((caller) => ({
      operation: `Admin ${key}`,
      caller: caller.spec,
      phase: 'http',
      run: async () => {
        const refusalAt = (path: string) => (scenario.requirement === 'staff' ? adminRefusal(caller.spec, route.method, path) : null);
        const ctx: CellContext = { caller: caller.spec, authorized: refusalAt(route.path) === null, world };
        const path = fill(route.path, (await scenario.params?.(ctx)) ?? {});
        const refusal = refusalAt(path);
        const credentials = await credentialsFor(caller, scenario.consumesSession, ctx.authorized);
        let observed;
        if (scenario.send) observed = await scenario.send(ctx, credentials, path);
        else {
          const csrf: Record<string, string> = credentials.csrfToken ? { csrfmiddlewaretoken: credentials.csrfToken } : {};
          const payload = route.method === 'GET' ? undefined : { urlencoded: { ...scenario.form?.(ctx), ...csrf } };
          observed = await sendHttp(app.url, route.method, path, credentials, payload);
        }
        return { observed, expected: refusal ?? scenario.expect(ctx) };
      },
    }));
  });
}

describe('authorization matrix', () => {
  it('has a row for every REST route, GraphQL root field, Interface B route and admin page, and none for a removed one', () => {
    const requirements = fieldRequirements();
    const fields = rootFields(schema).map((r) => r.field.name);
    const coverage = (surface: string, operations: string[], scenarios: Record<string, unknown>) => ({
      surface,
      withoutRow: operations.filter((op) => !scenarios[op]),
      rowWithoutOperation: Object.keys(scenarios).filter((op) => !operations.includes(op)),
    });
    expect([
      coverage(
        'REST',
        STUDIO_ROUTES.map((r) => routeKey(r.method, r.path)),
        STUDIO_SCENARIOS,
      ),
      coverage('GraphQL', fields, GRAPHQL_SCENARIOS),
      coverage(
        'Interface B',
        appRoutes.map((r) => routeKey(r.method, r.path)),
        APP_SCENARIOS,
      ),
      coverage(
        'admin',
        adminRoutes.map((r) => routeKey(r.method, r.path)),
        ADMIN_SCENARIOS,
      ),
    ]).toEqual(['REST', 'GraphQL', 'Interface B', 'admin'].map((surface) => ({ surface, withoutRow: [], rowWithoutOperation: [] })));
    expect(fields.filter((f) => !requirements.has(f))).toEqual([]);
    expect(appRoutes.length).toBeGreaterThan(0);
    expect(adminRoutes.length).toBeGreaterThan(0);
  });

  it('declares for each operation the requirement the contract gives it (the oracle trusts declarations)', () => {
    const requirements = fieldRequirements();
    const mismatch = (operation: string, declared: string | undefined, contract: string) =>
      declared === contract ? [] : [{ operation, declared, contract }];
    expect([
      ...STUDIO_ROUTES.flatMap((r) => {
        const scenario = STUDIO_SCENARIOS[routeKey(r.method, r.path)];
        return scenario ? mismatch(routeKey(r.method, r.path), r.requirement, scenario.requirement) : [];
      }),
      ...APP_API_ROUTES.flatMap((r) => mismatch(routeKey(r.method, r.path), r.requirement, 'app_key')),
      ...Object.entries(GRAPHQL_SCENARIOS).flatMap(([field, scenario]) => mismatch(field, requirements.get(field), scenario.requirement)),
    ]).toEqual([]);
  });

  it('answers every operation × caller cell exactly as the oracle says', async () => {
    const cells = [...studioCells(), ...graphqlCells(fieldRequirements()), ...appCells(), ...adminCells()];
    const operations = new Set(cells.map((c) => c.operation)).size;
    console.log(`authorization matrix: ${operations} operations × ${CALLERS.length} callers = ${cells.length} cells`);
    expect(cells.length).toBe(operations * CALLERS.length);
    const failures = [
      ...(await runCells(
        cells.filter((c) => c.phase === 'http'),
        CONCURRENCY,
      )),
      ...(await runCells(
        cells.filter((c) => c.phase === 'stream'),
        CONCURRENCY,
      )),
    ];
    expect(failures).toEqual([]);
  }, 240_000);

  it('left the resources aimed at by refused and foreign cells untouched', async () => {
    const [key] = await rows<{ revoked_at: Date | null }>(app.services.db, 'SELECT revoked_at FROM api_keys WHERE id = $1', [world.victimKeyId]);
    expect(key).toEqual({ revoked_at: null });
    const [appKey] = await rows<{ is_active: boolean }>(app.services.db, 'SELECT is_active FROM app_api_keys WHERE id = $1', [world.victimAppKeyId]);
    expect(appKey).toEqual({ is_active: true });
    const [draft] = await rows<{ published: boolean; generated: boolean }>(
      app.services.db,
      'SELECT published, generated FROM data_models WHERE ct_id = $1',
      [world.draftDm],
    );
    expect(draft).toEqual({ published: false, generated: false });
  });
});
