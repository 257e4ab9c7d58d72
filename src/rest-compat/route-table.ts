import type { Request, Response } from 'express';
import type { Services } from '../container';
import type { Caller, Requirement } from '../services/auth.service';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** The caller a handler receives: non-null whenever its route is not public (the glue refused it otherwise). */
export type CallerFor<R extends Requirement> = R extends 'public' ? Caller | null : Caller;

export interface RouteContext<C extends Caller | null = Caller | null> {
  req: Request;
  res: Response;
  services: Services;
  caller: C;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** A non-JSON body (an XSD, a ZIP, …) sent as is; its Content-Type goes in `headers`. */
  raw?: Buffer | string;
  headers?: Record<string, string>;
}

/** A REST-compat route of Interface A. `requirement` is declarative: the glue enforces it before the handler
 * runs, and a test fails if a route declares none. */
export interface StudioRoute<R extends Requirement = Requirement> {
  method: Method;
  path: string;
  requirement: R;
  /** Routes whose body is a multipart stream, read by the handler itself. */
  raw?: boolean;
  handle: (ctx: RouteContext<CallerFor<R>>) => Promise<RouteResult>;
}

/** Declares a route; the handler's `ctx.caller` is typed from the requirement. */
export const route = <R extends Requirement>(r: StudioRoute<R>): StudioRoute => r as unknown as StudioRoute;
