import type { NextFunction, Request, Response } from 'express';
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

/** Who a request counts against: its API key or credential when it presents one, else its address. */
function callerOf(req: Request): string {
  const credential = req.headers['x-api-key'] ?? req.headers.authorization ?? (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  if (typeof credential === 'string' && credential !== '') return `credential:${credential.slice(0, 200)}`;
  return `address:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** Holds a slot of the request's caller until its response ends; false (and `refuse` has answered 429 in the
 * route's contract shape) when the caller has none left. */
export function holdSlot(limiter: ConcurrencyLimiter, req: Request, res: Response, refuse: (req: Request, res: Response) => void): boolean {
  const release = limiter.acquire(callerOf(req));
  if (!release) {
    res.setHeader('Retry-After', '1');
    refuse(req, res);
    return false;
  }
  // 'close' follows 'finish', and also ends a response whose client went away.
  res.on('close', release);
  return true;
}

/** The same as Express middleware. */
export function limitConcurrency(limiter: ConcurrencyLimiter, refuse: (req: Request, res: Response) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (holdSlot(limiter, req, res, refuse)) next();
  };
}
