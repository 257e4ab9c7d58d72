import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import express, { type Express, type Request, type RequestHandler, type Response, type Router } from 'express';
import { answerClientError } from './client-errors';
import { sendJson } from './json-response';
import { RouteIndex, type IndexHit, type Method } from './route-index';
import { setSecurityHeaders } from './security-headers';
import type { Services } from '../container';
import { pendingMigrations } from '../db/migrate';
import { parseCookies } from '../lib/cookies';
import { requestLogLine, requestLogWriter, type Logger } from '../lib/logger';
import { mountMetrics, type RecordResponse } from '../metrics/metrics';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id: the client's X-Request-Id (first 100 characters) or a new UUID; echoed in the response. */
    id: string;
  }
}

const UNLOGGED = new Set(['/healthz', '/readyz']);

const STARTED = Symbol('request.started');
type Started = Request & { [STARTED]: number };

/**
 * What every request gets on arrival: its id (the client's X-Request-Id, first 100 characters, or a new UUID,
 * echoed in the response) and, when it ends, its metrics and one compact log line (method, path, status, time;
 * the id as `reqId`), at error level for a 5xx and warn when the client went away first; health checks are not
 * logged. One shared end listener a response, no closure: the start time rides on the request.
 */
export function requestLifecycle(logger: Logger, record: RecordResponse | null): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const log = requestLogWriter(logger);
  function ended(this: http.ServerResponse) {
    const req = this.req as Started;
    const ms = performance.now() - req[STARTED];
    const finished = this.writableFinished;
    if (record && finished) record(req, this.statusCode, ms / 1000);
    if (!log || UNLOGGED.has(req.url)) return;
    const line = requestLogLine(req.method, req.url, finished ? this.statusCode : 'aborted', Math.round(ms));
    log(!finished ? 'warn' : this.statusCode >= 500 ? 'error' : 'info', req.id, line);
  }
  return (req, res) => {
    const header = req.headers['x-request-id'];
    const id = (typeof header === 'string' && header.slice(0, 100)) || randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (!log && !record) return;
    (req as Started)[STARTED] = performance.now();
    res.on('close', ended);
  };
}

/** `req.cookies`, parsed on first read only: most requests (keys, health checks) never look. */
function lazyCookies(app: Express): void {
  Object.defineProperty(app.request, 'cookies', {
    configurable: true,
    get(this: http.IncomingMessage) {
      const cookies = parseCookies(this.headers.cookie);
      Object.defineProperty(this, 'cookies', { value: cookies, writable: true, configurable: true, enumerable: true });
      return cookies;
    },
    set(this: http.IncomingMessage, value: unknown) {
      Object.defineProperty(this, 'cookies', { value, writable: true, configurable: true, enumerable: true });
    },
  });
}

/**
 * Request and response classes whose prototypes are already Express's (`app.request`, `app.response`). Express
 * re-parents every request and response with `Object.setPrototypeOf` as it enters the app; on a plain Node
 * message that changes the object's shape each time, which costs more CPU than the whole route (profiled: about
 * 130 µs against 50 µs a `/healthz` on this machine) and leaves every later property access megamorphic. Built
 * with these classes, the prototype is already the one Express sets, so the call changes nothing.
 */
function expressShapedMessages(app: Express): http.ServerOptions {
  function Request(this: http.IncomingMessage, socket: import('node:net').Socket) {
    http.IncomingMessage.call(this, socket);
  }
  Request.prototype = app.request;
  function Response(this: http.ServerResponse, req: http.IncomingMessage, options?: object) {
    (http.ServerResponse as unknown as (this: http.ServerResponse, ...args: unknown[]) => void).call(this, req, options);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof http.IncomingMessage,
    ServerResponse: Response as unknown as typeof http.ServerResponse,
  };
}

/** A route's handler: called by the route index for the exact spelling of its path, by Express for the rest. */
export type IndexedHandler = (req: Request, res: Response) => unknown;

/** Registers a route with Express (which answers every spelling its router accepts) and with the index. */
export function indexRoute(target: Express | Router, index: RouteIndex<IndexedHandler>, method: Method, path: string, handler: IndexedHandler): void {
  (target as Router)[method](path, handler as RequestHandler);
  index.add(method, path, handler);
}

/** What Express's own entry sets on a request before its router runs, for a request the index answers. */
function enterIndexed(req: Request, res: Response, hit: IndexHit<IndexedHandler>): void {
  req.originalUrl = req.url;
  req.params = hit.params;
  req.route = { path: hit.pattern };
  req.res = res;
  res.locals = Object.create(null) as Record<string, unknown>;
}

export interface BaseApp {
  app: Express;
  httpServer: http.Server;
  /** The routes answered without Express's router (one walk of the path's segments, not one layer a route). */
  routes: RouteIndex<IndexedHandler>;
}

/** What every role's HTTP server starts with: timeouts, malformed-request answers, request ids and structured
 * logs, metrics, cookies, the health endpoints, and the route index in front of Express. */
export function createBaseApp(services: Services): BaseApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  // No automatic weak ETag (a SHA-1 of every JSON answer): the answers that are cacheable set a strong one.
  app.set('etag', false);
  lazyCookies(app);
  const routes = new RouteIndex<IndexedHandler>();
  const begin = requestLifecycle(services.logger, mountMetrics(app, services));
  const httpServer = http.createServer(expressShapedMessages(app), (req, res) => {
    begin(req, res);
    setSecurityHeaders(res);
    const hit = routes.find(req.method!, req.url!);
    if (hit === null) return void app(req, res);
    enterIndexed(req as Request, res as Response, hit);
    void hit.handler(req as Request, res as Response);
  });
  httpServer.requestTimeout = services.settings.requestTimeoutMs;
  httpServer.headersTimeout = Math.min(services.settings.requestTimeoutMs, 60000);
  httpServer.on('clientError', answerClientError);

  indexRoute(app, routes, 'get', '/healthz', (_req, res) => sendJson(res, 200, { status: 'ok' }));
  indexRoute(app, routes, 'get', '/readyz', async (_req, res) => {
    const [database, storage] = await Promise.all([databaseReadiness(services), storageReadiness(services)]);
    const status = database.problem ?? (storage.storage === 'ok' ? 'ready' : 'unavailable');
    sendJson(res, status === 'ready' ? 200 : 503, { status, ...database.fields, ...storage });
  });
  return { app, httpServer, routes };
}

/** Startup refused because another process holds the port: main prints its message alone and exits 1. */
export class PortInUse extends Error {
  constructor(port: number, host: string, cause: Error) {
    super(`port ${port} on ${host} is already in use (EADDRINUSE): stop the other process or set PORT to a free port`, { cause });
    this.name = 'PortInUse';
  }
}

/** Listens and returns the loopback URL of the bound port; rejects when the port cannot be bound. */
export async function listen(httpServer: http.Server, port: number, host = '0.0.0.0'): Promise<string> {
  // The WebSocket server re-emits a listen failure and graphql-ws prints it with a stack: until bound, it is ours alone.
  const others = httpServer.listeners('error') as Array<(error: Error) => void>;
  httpServer.removeAllListeners('error');
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUse(port, host, error)
          : new Error(`cannot listen on ${host}:${port}: ${error.message}`, { cause: error }),
      );
    httpServer.once('error', refused);
    httpServer.listen(port, host, () => {
      httpServer.off('error', refused);
      resolve();
    });
  });
  for (const listener of others) httpServer.on('error', listener);
  const address = httpServer.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
}

async function databaseReadiness(services: Services): Promise<{ problem?: string; fields: Record<string, unknown> }> {
  try {
    const pending = await pendingMigrations((sql) => services.db.query(sql));
    return pending.length ? { problem: 'migrations_pending', fields: { pending } } : { fields: { database: 'ok' } };
  } catch (error) {
    return { problem: 'unavailable', fields: { database: 'unreachable', error: (error as Error).message } };
  }
}

/** Storage is ready when this node's staging directory is writable and the shared storage (STORAGE_URL) answers. */
async function storageReadiness(services: Services): Promise<{ storage: string; storage_error?: string }> {
  try {
    await services.app.files.check();
    await services.app.storage.check();
    return { storage: 'ok' };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { storage: 'unavailable', storage_error: `${services.app.storage.kind}: ${code ?? message ?? 'unknown'}` };
  }
}
