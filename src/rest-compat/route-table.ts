import type { Request, Response } from 'express';
import type { Services } from '../container';
import type { Caller, Requirement } from '../services/auth.service';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteContext {
  req: Request;
  res: Response;
  services: Services;
  caller: Caller | null;
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
export interface StudioRoute {
  method: Method;
  path: string;
  requirement: Requirement;
  /** Routes whose body is a multipart stream, read by the handler itself. */
  raw?: boolean;
  handle: (ctx: RouteContext) => Promise<RouteResult>;
}

export const route = (r: StudioRoute): StudioRoute => r;
