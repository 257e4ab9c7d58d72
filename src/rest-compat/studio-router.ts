import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Services } from '../container';
import { strictUtf8 } from '../http/json-body';
import { databaseUnavailable, DomainError, isDatabaseUnavailable } from '../lib/errors';
import type { Caller } from '../services/auth.service';
import { SESSION_COOKIE } from '../http/session-cookies';
import type { StudioRoute } from './route-table';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Credentials of a request, for both transports. */
export function credentialsOf(req: Request): { authorization?: string; sessionToken?: string } {
  const authorization = req.headers.authorization;
  return { authorization, sessionToken: req.cookies?.[SESSION_COOKIE] };
}

/** Interface A error body: `{error, error_type, ...fields}`; unknown errors are logged and masked. */
export function sendStudioError(error: unknown, req: Request, res: Response, services: Services): void {
  if (isDatabaseUnavailable(error)) error = databaseUnavailable(error);
  if (error instanceof DomainError) {
    if (error.status >= 500) services.logger.error({ err: error, cause: error.cause, reqId: req.id }, error.message);
    if (error.status === 429 && typeof error.fields.retry_after_seconds === 'number') {
      res.setHeader('Retry-After', String(error.fields.retry_after_seconds));
    }
    res.status(error.status).json({ error: error.message, error_type: error.code, ...error.fields });
    return;
  }
  const status = (error as { status?: number; type?: string }).status;
  if (status === 413) {
    res.status(413).json({ error: 'Request body too large.', error_type: 'payload_too_large' });
    return;
  }
  if (status === 415) {
    res.status(415).json({ error: `${(error as Error).message}: send UTF-8 JSON.`, error_type: 'unsupported_media_type' });
    return;
  }
  if (error instanceof URIError && status === 400) {
    res.status(400).json({ error: 'Malformed URL: a path segment is not valid percent-encoded UTF-8.', error_type: 'invalid_request' });
    return;
  }
  if (status === 400 || (error as { type?: string }).type === 'entity.parse.failed') {
    res.status(400).json({ error: 'Malformed request body: send valid JSON.', error_type: 'invalid_request' });
    return;
  }
  services.logger.error({ err: error, reqId: req.id }, 'unhandled error');
  res.status(500).json({ error: 'Internal server error.', error_type: 'server_error' });
}

export function buildStudioRouter(services: Services, routes: StudioRoute[]): Router {
  const router = express.Router();
  const json = express.json({ limit: '5mb', strict: false, verify: strictUtf8 });
  // Authentication runs before the body is read: an anonymous caller gets 401 whatever it sends.
  const authorize = (def: StudioRoute) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      const caller: Caller | null = await services.auth.authenticate(credentialsOf(req));
      services.auth.authorize(caller, def.requirement, {
        unsafe: !SAFE_METHODS.has(req.method),
        token: req.headers['x-csrftoken'] as string | undefined,
      });
      res.locals.caller = caller;
      next();
    } catch (error) {
      sendStudioError(error, req, res, services);
    }
  };
  const handle = (def: StudioRoute) => async (req: Request, res: Response) => {
    try {
      const result = await def.handle({
        req,
        res,
        services,
        caller: res.locals.caller as Caller | null,
        params: req.params as Record<string, string>,
        query: req.query as Record<string, unknown>,
        body: req.body,
      });
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      res.status(result.status);
      if (result.raw !== undefined) res.send(result.raw);
      else if (result.body === undefined) res.end();
      else res.json(result.body);
    } catch (error) {
      sendStudioError(error, req, res, services);
    }
  };
  for (const def of routes) {
    router[def.method](def.path, authorize(def), ...(def.raw ? [] : [json]), handle(def));
  }
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => sendStudioError(error, req, res, services));
  return router;
}
