import type { NextFunction, Request, Response } from 'express';
import { sha256Hex } from '../lib/crypto';
import { CallerDbShares } from '../lib/caller-db-shares';
import { runAsCpuCaller } from '../workers/pool';
import { SESSION_COOKIE } from './session-cookies';

/** Requests in progress per caller (API key, session or address): past the cap a caller is refused at once, so
 * a flood from one caller degrades that caller first and leaves the pool's connections to everyone else. */
export class ConcurrencyLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly maxPerCaller: number) {}

  /** A release function, or null when the caller already has `maxPerCaller` requests in progress. */
  acquire(caller: string): (() => void) | null {
    const current = this.inFlight.get(caller) ?? 0;
    if (current >= this.maxPerCaller) return null;
    this.inFlight.set(caller, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(caller) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(caller);
      else this.inFlight.set(caller, left);
    };
  }
}

/** The budgets of each caller, one set per process shared by every transport (REST, GraphQL over HTTP and over
 * WebSocket): requests or operations in progress, database connections its GraphQL fields hold at once, and,
 * per user, subscriptions open across all its sockets and keys. A caller is a verified credential (studio key,
 * session, app key) or, without one, the client address: a credential counts as its own caller only once it has
 * authenticated, so a made-up `Authorization` per request is the address it comes from. */
export interface CallerBudgetSettings {
  maxConcurrentRequestsPerCaller: number;
  dbConnectionsPerCaller: number;
  maxSubscriptionsPerUser: number;
}

/** Verified credentials remembered (by hash) to key their callers; the oldest are forgotten past this many. */
const KNOWN_CREDENTIALS = 10_000;

export class CallerBudgets {
  readonly inFlight: ConcurrencyLimiter;
  private readonly known = new Map<string, string>();
  private readonly subscriptions = new Map<number, number>();

  constructor(
    readonly settings: CallerBudgetSettings,
    /** The process's database shares, also counting the caller's storage writes (src/lib/caller-db-shares.ts). */
    private readonly dbShares = new CallerDbShares(settings.dbConnectionsPerCaller),
  ) {
    this.inFlight = new ConcurrencyLimiter(settings.maxConcurrentRequestsPerCaller);
  }

  /** Records that `credential` authenticated as `caller` (see callerIdOf). */
  remember(credential: string | undefined, caller: string): void {
    if (!credential) return;
    const hash = sha256Hex(credential);
    if (this.known.get(hash) === caller) return;
    this.known.delete(hash);
    this.known.set(hash, caller);
    if (this.known.size > KNOWN_CREDENTIALS) this.known.delete(this.known.keys().next().value!);
  }

  /** Who a request counts against: the caller its credential authenticated as before, else its address. */
  callerOf(req: Request): string {
    const credential = credentialOf(req);
    const known = credential === undefined ? undefined : this.known.get(sha256Hex(credential));
    return known ?? `address:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  }

  /** Runs `work` in one of the caller's database-connection slots (DB_CONNECTIONS_PER_CALLER), shared by all its
   * requests, socket operations and storage writes; the others wait their turn. */
  withDbShare<T>(caller: string, work: () => Promise<T> | T): Promise<T> {
    return this.dbShares.run(caller, work);
  }

  /** Whether the user already has WS_MAX_SUBSCRIPTIONS_PER_USER subscriptions open (one more is refused). */
  subscriptionsFull(userId: number): boolean {
    return (this.subscriptions.get(userId) ?? 0) >= this.settings.maxSubscriptionsPerUser;
  }

  /** A release function, or null when the user already has WS_MAX_SUBSCRIPTIONS_PER_USER subscriptions open. */
  acquireSubscription(userId: number): (() => void) | null {
    if (this.subscriptionsFull(userId)) return null;
    this.subscriptions.set(userId, (this.subscriptions.get(userId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.subscriptions.get(userId) ?? 1) - 1;
      if (left <= 0) this.subscriptions.delete(userId);
      else this.subscriptions.set(userId, left);
    };
  }
}

/** The budgets of the settings (README: Configuration), with the process's database shares. */
export function callerBudgetsOf(
  settings: { maxConcurrentRequestsPerCaller: number; dbConnectionsPerCaller: number; websocket: { maxSubscriptionsPerUser: number } },
  dbShares: CallerDbShares,
): CallerBudgets {
  return new CallerBudgets(
    {
      maxConcurrentRequestsPerCaller: settings.maxConcurrentRequestsPerCaller,
      dbConnectionsPerCaller: settings.dbConnectionsPerCaller,
      maxSubscriptionsPerUser: settings.websocket.maxSubscriptionsPerUser,
    },
    dbShares,
  );
}

/** The caller a verified studio caller or app key counts as. */
export function callerIdOf(caller: { via: 'key'; key: { id: number } } | { via: 'session'; session: { id: number } } | { keyId: number }): string {
  if ('keyId' in caller) return `app-key:${caller.keyId}`;
  return caller.via === 'key' ? `key:${caller.key.id}` : `session:${caller.session.id}`;
}

/** The credential a request presents, in the order authentication reads it. */
function credentialOf(req: Request): string | undefined {
  const credential = req.headers['x-api-key'] ?? req.headers.authorization ?? (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  return typeof credential === 'string' && credential !== '' && credential.length <= 1024 ? credential : undefined;
}

/** The credential of a request as `CallerBudgets.remember` takes it. */
export const presentedCredential = credentialOf;

/** Holds a slot of the request's caller until its response ends and returns that caller (CPU tasks of the
 * request queue in its lane: run the rest of the request in runAsCpuCaller); null (and `refuse` has answered 429
 * in the route's contract shape) when the caller has none left. */
export function holdSlot(budgets: CallerBudgets, req: Request, res: Response, refuse: (req: Request, res: Response) => void): string | null {
  const caller = budgets.callerOf(req);
  const release = budgets.inFlight.acquire(caller);
  if (!release) {
    res.setHeader('Retry-After', '1');
    refuse(req, res);
    return null;
  }
  // 'close' follows 'finish', and also ends a response whose client went away.
  res.on('close', release);
  return caller;
}

/** The same as Express middleware. */
export function limitConcurrency(budgets: CallerBudgets, refuse: (req: Request, res: Response) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const caller = holdSlot(budgets, req, res, refuse);
    if (caller !== null) runAsCpuCaller(caller, next);
  };
}
