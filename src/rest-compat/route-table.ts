import type { Request, Response } from 'express';
import type { ChargeDoor } from '../money';
import type { Services } from '../container';
import type { Caller, Requirement } from '../services/auth.service';
import type { APP_KEY, AppCaller } from '../services/app-keys.service';
import type { JsonSchema } from '../lib/json-schema';
import type { Method } from '../http/route-index';

/** What a route needs: Interface A's requirements, or Interface B's organisation key. */
export type RouteRequirement = Requirement | typeof APP_KEY;

/** The caller a handler receives: an organisation key's for Interface B, non-null whenever an Interface A route
 * is not public (the glue refused it otherwise). */
type CallerFor<R extends RouteRequirement> = R extends typeof APP_KEY ? AppCaller : R extends 'public' ? Caller | null : Caller;

export interface RouteContext<C extends Caller | AppCaller | null = Caller | null> {
  req: Request;
  res: Response;
  services: Services;
  caller: C;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** Runs `work` once per Idempotency-Key (when the request sent one) for this request's `fingerprint`. The
   * glue calls it for JSON routes marked `idempotent`; a raw route calls it once it has read its body. */
  /** `fingerprint` (or a function returning it, called only when an Idempotency-Key is sent) identifies the request. */
  idempotently: (fingerprint: unknown, work: () => Promise<RouteResult>) => Promise<RouteResult>;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** A non-JSON body (an XSD, a ZIP, SPARQL results, …) sent as is; its Content-Type goes in `headers`. */
  raw?: Buffer | string;
  headers?: Record<string, string>;
}

/** A file answer: its bytes as they are, shown inline or offered as a download under its own name. */
export function fileResult(
  file: { fileName: string; content: Buffer | string },
  contentType: string,
  disposition: 'inline' | 'attachment' = 'inline',
  headers: Record<string, string> = {},
): RouteResult {
  return {
    status: 200,
    raw: file.content,
    headers: { ...headers, 'Content-Type': contentType, 'Content-Disposition': `${disposition}; filename="${file.fileName}"` },
  };
}

/** One documented answer: a JSON body's schema, or another media type (a file, a page) with an optional schema. */
export interface ResponseDoc {
  description: string;
  schema?: JsonSchema;
  /** application/json unless said; `*\/*` for a file answered in its own media type. */
  contentType?: string;
  /** Other media types the same status may answer (content negotiation), each with its schema (`{}`: any). */
  alternatives?: Record<string, JsonSchema>;
}

/** What the OpenAPI document (`/api/openapi.json`, src/openapi) says of a route. Error answers (4XX/5XX) are
 * documented once per interface; list here every success or redirect status the handler answers. */
export interface RouteDoc {
  summary: string;
  tag: string;
  description?: string;
  query?: Record<string, JsonSchema>;
  requestBody?: { contentType: string; schema: JsonSchema; required?: boolean };
  responses: Record<number, ResponseDoc>;
}

/** A REST route of either interface. `requirement` is declarative: the glue enforces it before the handler runs,
 * and a test fails if a route declares none. */
export interface Route<R extends RouteRequirement = RouteRequirement> {
  method: Method;
  path: string;
  requirement: R;
  /** Routes whose body is a stream read by the handler itself (every Interface B route is). */
  raw?: boolean;
  /** A POST that charges or enqueues: a retry with the same Idempotency-Key answers the first response. */
  idempotent?: boolean;
  /** The price-table door this route charges through (src/money/prices.ts): the edge asks a key for `spend` too,
   * after `requirement`; services never check scopes. */
  charges?: ChargeDoor;
  handle: (ctx: RouteContext<CallerFor<R>>) => Promise<RouteResult>;
  /** Its OpenAPI description; the response-validation check fails for a status a route does not document. */
  doc?: RouteDoc;
}

export type StudioRoute = Route<Requirement>;
export type AppApiRoute = Route<typeof APP_KEY>;
export type AnyRoute = StudioRoute | AppApiRoute;

/** Declares a route; the handler's `ctx.caller` is typed from the requirement. */
export const route = <R extends RouteRequirement>(r: Route<R>) => r as unknown as R extends typeof APP_KEY ? AppApiRoute : StudioRoute;

export const isAppApiRoute = (r: AnyRoute): r is AppApiRoute => r.requirement === 'app_key';
