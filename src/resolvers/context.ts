import type { Request, Response } from 'express';
import { Authorized, createParameterDecorator } from 'type-graphql';
import { CHARGES, type ChargeDoor } from '../money';
import { unauthenticated } from '../lib/errors';
import type { Services } from '../container';
import type { Caller, Requirement } from '../services/auth.service';
import type { Semaphore } from '../lib/semaphore';
import type { Loaders } from './loaders';

export interface GraphQLContext {
  services: Services;
  caller: Caller | null;
  /** Batched reads (DataLoader), made for this request or subscription. */
  loaders: Loaders;
  /** A presented credential that failed; raised by any field that needs a caller. */
  authError?: Error | null;
  req?: Request;
  res?: Response;
  /** Root fields of this operation in progress at once (GRAPHQL_MAX_DB_CONNECTIONS, within the caller's
   * DB_CONNECTIONS_PER_CALLER), see db-slots.ts. */
  dbSlots?: Pick<Semaphore, 'run'>;
}

/** Declares what a field needs (same vocabulary as REST routes); enforced by the schema's authChecker. A field
 * that charges adds `{ charges: … }` (the price-table door, as the REST route table's `charges`): the authChecker
 * then also asks `spend` of a key, the one place that is checked. */
export const Requires = (requirement: Requirement, declared: { charges?: ChargeDoor } = {}) =>
  Authorized(declared.charges ? [requirement, CHARGES] : requirement);

/** The signed-in caller of a field whose `@Requires` is not public (the authChecker refused it otherwise). */
export const CurrentCaller = () =>
  createParameterDecorator<GraphQLContext>(({ context }) => {
    if (!context.caller) throw unauthenticated();
    return context.caller;
  });
