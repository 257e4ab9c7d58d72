import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import * as q from '../db/queries/idempotency.sql';
import { query } from '../db/sql';
import { conflict } from '../lib/errors';

/**
 * An Idempotency-Key's claim as the charging code sees it. The HTTP and GraphQL edges claim the key
 * (src/http/idempotency.ts) and run the request inside `withClaim`; the transaction that charges (or holds) calls
 * `recordOutcome` before it commits, so the outcome (what was charged, the ledger row, the resource made and the
 * service's answer) commits with the money or not at all. A retry that finds an outcome runs the request in replay
 * mode: the charging service's `replayOr` answers the recorded result instead of running the work again.
 */
export interface ClaimOutcome {
  /** Credits charged, or held for a job that will capture them. */
  charged: number;
  ledgerEntryId: number | null;
  /** What the request made: a model, a job, a draft entry, a validation. */
  resource: { type: string; id: string };
  /** The service's result, encoded (dates survive as dates). */
  result: string;
}

export interface Claim {
  userId: number;
  key: string;
  /** The attempt that holds the key; a takeover after the lease writes another. */
  token: string;
  /** The outcome a committed earlier attempt recorded; null when the work must run. */
  replay: ClaimOutcome | null;
}

const current = new AsyncLocalStorage<Claim>();

const claimLost = () => conflict('idempotency_key_in_use', 'Another attempt with this Idempotency-Key took it over; retry to get its answer.', {});

/** Runs `work` as the holder of `claim`. */
export function withClaim<T>(claim: Claim, work: () => Promise<T>): Promise<T> {
  return current.run(claim, work);
}

/** The request's claim, if it was sent with an Idempotency-Key (a group-commit batch carries it explicitly). */
export function currentClaim(): Claim | null {
  return current.getStore() ?? null;
}

/** A charging service's entry: a retry whose earlier attempt committed answers that attempt's result. */
export function replayOr<T>(work: () => Promise<T>): Promise<T> {
  const claim = current.getStore();
  if (claim?.replay) return Promise.resolve(decodeResult<T>(claim.replay.result));
  return work();
}

export interface Outcome<T> {
  charged: number;
  ledgerEntryId: number | null;
  resource: { type: string; id: string };
  result: T;
}

/** Writes the outcome in the charging transaction (`manager`); without a claim it does nothing. 409 when another
 * attempt took the key over: the transaction then rolls back and nothing is charged twice. */
export async function recordOutcome<T>(manager: EntityManager | DataSource, outcome: Outcome<T>, claim = currentClaim()): Promise<void> {
  if (!claim) return;
  const stored: ClaimOutcome = { ...outcome, result: encodeResult(outcome.result) };
  const written = await query(manager, q.outcomeRecorded(claim, claim.token, JSON.stringify(stored)));
  if (written.length !== 1) throw claimLost();
}

/** A refund that undoes the recorded charge, in its transaction: the claim then holds nothing committed, so the
 * failed request frees its key as if it never ran. */
export async function clearOutcome(manager: EntityManager | DataSource, claim = currentClaim()): Promise<void> {
  if (!claim) return;
  await query(manager, q.outcomeCleared(claim, claim.token));
}

/** JSON with dates tagged, so a replayed result reads as the first one did. */
function encodeResult(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return { $date: raw.toISOString() };
    if (Buffer.isBuffer(raw)) return undefined;
    return v;
  });
}

export function decodeResult<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const tagged = v as { $date?: unknown };
      if (typeof tagged.$date === 'string' && Object.keys(v).length === 1) return new Date(tagged.$date);
    }
    return v;
  }) as T;
}
