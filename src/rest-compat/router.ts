import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Services } from '../container';
import { indexRoute, type IndexedHandler } from '../http/base-app';
import { loopTurn, needsTurn } from '../http/loop-turns';
import { callerBudgetsOf, callerIdOf, holdSlot, presentedCredential, type CallerBudgets } from '../http/concurrency';
import { runAsCpuCaller } from '../workers/pool';
import { sendJson } from '../http/json-response';
import type { RouteIndex } from '../http/route-index';
import { sendAppApiError, sendStudioError } from '../http/errors';
import { fingerprintOf, IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../http/idempotency';
import { RetryLaterError } from '../lib/cpu-errors';
import { DomainError } from '../lib/errors';
import { strictUtf8 } from '../http/json-body';
import { studioUnstorableText, unstorableField } from '../http/text-guard';
import { AppGeneralError, appUnstorableText, malformedUrl, routeNotFound } from '../lib/app-api-errors';
import type { AppCaller } from '../services/app-keys.service';
import type { Caller } from '../services/auth.service';
import { readCookie, SESSION_COOKIE } from '../http/session-cookies';
import { isAppApiRoute, type AnyRoute, type AppApiRoute, type RouteContext, type RouteResult, type StudioRoute } from './route-table';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Credentials of a request, for both transports. A key wins over a session cookie (AuthService.authenticate),
 * so the cookies are parsed only when there is no Authorization header. */
export function credentialsOf(req: Request): { authorization?: string; sessionToken?: string } {
  const authorization = req.headers.authorization;
  return authorization === undefined ? { sessionToken: readCookie(req, SESSION_COOKIE) } : { authorization };
}

function send(res: Response, result: RouteResult): void {
  if (result.headers) for (const name in result.headers) res.setHeader(name, result.headers[name]);
  if (result.raw !== undefined) res.status(result.status).send(result.raw);
  else if (result.body === undefined) res.status(result.status).end();
  else sendJson(res, result.status, result.body);
}

function contextOf<C extends Caller | AppCaller | null>(
  req: Request,
  res: Response,
  services: Services,
  caller: C,
  operation: string,
): RouteContext<C> {
  const userId = caller && 'user' in caller ? caller.user.id : null;
  const idempotently = (fingerprint: unknown, work: () => Promise<RouteResult>) => {
    const key = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER]);
    if (key === null || userId === null) return work();
    // A function is called only here, when a key is sent: a fingerprint that hashes megabytes costs nothing without one.
    return services.idempotency.once(
      { userId, key, operation },
      fingerprintOf(typeof fingerprint === 'function' ? (fingerprint as () => unknown)() : fingerprint),
      work,
    );
  };
  return { req, res, services, caller, params: req.params as Record<string, string>, query: req.query, body: req.body, idempotently };
}

/**
 * The REST router of a route table of either interface or both. Each route's requirement is enforced before its
 * handler runs (and before its body is read); errors render in the route's interface's shape. Interface B routes
 * come first, with their general-format 404 for an unknown method or sub-path under their prefixes.
 */
export function buildRestRouter(
  services: Services,
  routes: AnyRoute[],
  index: RouteIndex<IndexedHandler>,
  limiter: CallerBudgets = callerBudgetsOf(services.settings, services.app.dbShares),
): Router {
  const router = express.Router();
  const appApi = routes.filter(isAppApiRoute);
  const studio = routes.filter((r): r is StudioRoute => !isAppApiRoute(r));
  if (appApi.length > 0) mountAppApi(router, index, services, appApi, limiter);
  if (studio.length > 0) mountStudio(router, index, services, studio, limiter);
  return router;
}

const tooManyMessage = (limit: number) =>
  `Too many requests in progress for this caller: at most ${limit} at once (MAX_CONCURRENT_REQUESTS_PER_CALLER).`;

function mountAppApi(router: Router, index: RouteIndex<IndexedHandler>, services: Services, routes: AppApiRoute[], limiter: CallerBudgets): void {
  const refuse = (req: Request, res: Response) =>
    sendAppApiError(new RetryLaterError(429, 'TOO_MANY_REQUESTS', tooManyMessage(limiter.inFlight.maxPerCaller), 1), req, res, services.logger);
  for (const def of routes) {
    const operation = `${def.method} ${def.path}`;
    indexRoute(router, index, def.method, def.path, async (req, res) => {
      if (holdSlot(limiter, req, res, refuse) === null) return;
      try {
        const caller = await services.app.keys.authenticate(req.headers['x-api-key']);
        limiter.remember(presentedCredential(req), callerIdOf(caller));
        const unstorable = unstorableField(req, undefined);
        if (unstorable) throw appUnstorableText(unstorable);
        // CPU tasks of the request wait in its key's lane of the pool's fair queue.
        send(res, await runAsCpuCaller(callerIdOf(caller), () => def.handle(contextOf(req, res, services, caller, operation))));
      } catch (error) {
        sendAppApiError(error, req, res, services.logger);
      }
    });
  }
  for (const [path, methods] of methodsByPath(routes)) router.all(path, (req: Request, res: Response) => methodNotAllowed(req, res, methods));
  const prefixes = [...new Set(routes.map((r) => /^\/api\/v1\/[^/]+/.exec(r.path)![0]))];
  router.use(prefixes, appApiNotFound);
  // A path segment that is not valid percent-encoded UTF-8 fails in the router before any handler runs.
  router.use(prefixes, (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof URIError)) return next(error);
    sendAppApiError(malformedUrl(), req, res, services.logger);
  });
}

function mountStudio(router: Router, index: RouteIndex<IndexedHandler>, services: Services, routes: StudioRoute[], limiter: CallerBudgets): void {
  const refuse = (req: Request, res: Response) =>
    sendStudioError(
      new DomainError(429, 'too_many_requests', tooManyMessage(limiter.inFlight.maxPerCaller), { retry_after_seconds: 1 }),
      req,
      res,
      services.logger,
    );
  const json = express.json({ limit: '5mb', strict: false, verify: strictUtf8 });
  const readJson = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) =>
      json(req, res, (error?: unknown) =>
        error ? reject(error instanceof Error ? error : new Error('the JSON body could not be read')) : resolve(),
      ),
    );
  for (const def of routes) {
    const operation = `${def.method} ${def.path}`;
    // A GET has no body to read, a raw route reads its own.
    const parsesJson = !def.raw && def.method !== 'get';
    indexRoute(router, index, def.method, def.path, async (req, res) => {
      const slot = holdSlot(limiter, req, res, refuse);
      if (slot === null) return;
      try {
        // Authentication runs before the body is read: an anonymous caller gets 401 whatever it sends.
        const caller: Caller | null = await services.auth.authenticate(credentialsOf(req));
        if (caller) limiter.remember(presentedCredential(req), callerIdOf(caller));
        services.auth.authorize(caller, def.requirement, {
          unsafe: !SAFE_METHODS.has(req.method),
          token: req.headers['x-csrftoken'] as string | undefined,
        });
        if (def.charges) services.auth.authorize(caller, 'spend');
        // CPU tasks of the request (a large JSON body included) wait in its caller's lane of the pool's fair queue.
        await runAsCpuCaller(caller ? callerIdOf(caller) : slot, async () => {
          if (parsesJson) {
            // A large body is read, checked and parsed in this caller's turn of the event loop (when it is in by
            // then, as it mostly is after authentication): everything else that came in meanwhile is answered first.
            if (needsTurn(req)) await loopTurn();
            await readJson(req, res);
          }
          const unstorable = unstorableField(req, def.raw ? undefined : req.body);
          if (unstorable) throw studioUnstorableText(unstorable);
          const ctx = contextOf(req, res, services, caller, operation);
          const run = () => def.handle(ctx);
          send(res, def.idempotent && !def.raw ? await ctx.idempotently({ params: ctx.params, query: ctx.query, body: ctx.body }, run) : await run());
        });
      } catch (error) {
        sendStudioError(error, req, res, services.logger);
      }
    });
  }
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => sendStudioError(error, req, res, services.logger));
}

/** The methods each Interface B path answers (HEAD wherever GET is), for the 405's `Allow`. */
function methodsByPath(routes: AppApiRoute[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const def of routes) {
    const methods = byPath.get(def.path) ?? [];
    methods.push(...(def.method === 'get' ? ['GET', 'HEAD'] : [def.method.toUpperCase()]));
    byPath.set(def.path, methods);
  }
  return byPath;
}

/** A known Interface B path asked with a method it does not answer: 405 with `Allow`, in the general format. */
function methodNotAllowed(req: Request, res: Response, methods: string[]): void {
  const error = new AppGeneralError(
    405,
    'METHOD_NOT_ALLOWED',
    `Method ${req.method.slice(0, 20)} is not allowed here: use ${methods.join(' or ')}.`,
    {},
  );
  res.setHeader('Allow', methods.join(', '));
  res.status(error.status).json(error.body());
}

/** Unknown route, in Interface B's general error format (ROLE=app answers every unknown path with it). */
export function appApiNotFound(req: Request, res: Response): void {
  const error = routeNotFound(req.method, req.originalUrl.split('?')[0] ?? '');
  res.status(error.status).json(error.body());
}
