import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import * as q from '../db/queries/idempotency.sql';
import { query, queryOne } from '../db/sql';
import { badRequest, conflict, DomainError } from '../lib/errors';
import { newId } from '../lib/ids';
import { withClaim, type Claim, type ClaimOutcome } from '../money';

/** The request header of the IETF draft "The Idempotency-Key HTTP Header Field", as payment APIs use it. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;
/** A duplicate waits this long for the first request to answer before it is told to retry (409). */
const WAIT_MS = 60_000;
const POLL_MS = 100;
/** A claim with nothing committed after this long means its process died: a retry may run the request again
 * (IDEMPOTENCY_LEASE_SECONDS). */
const LEASE_SECONDS = 120;

/** A response as the first request answered it, replayed to every retry with the same key within 24 hours. */
export interface StoredResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface IdempotencyScope {
  userId: number;
  key: string;
  /** The method and route the key was first used with; a key is one operation's. */
  operation: string;
}

const keyReused = () =>
  new DomainError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request; send a new key for a new request.');

const keyInUse = () => conflict('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry shortly.', {});

/** The header's key: absent is null; present, it must be 1 to 255 visible ASCII characters. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters.', { details: { 'Idempotency-Key': ['Invalid.'] } });
  }
  return value;
}

/** A stable digest of a request: object keys sorted, so the same JSON in another order is the same request. */
export function fingerprintOf(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)) ?? 'undefined')
    .digest('hex');
}

/** Runs a request once per (user, key) within 24 hours. The first claims the key (with a token naming the attempt)
 * and records its answer; a retry with the same request gets that answer without running it again, a different
 * request 422, and a duplicate that arrives while the first runs waits for it. Money: the transaction that charges
 * writes the claim's outcome (src/money/claims.ts), so an outcome exists exactly when money moved. A retry that
 * finds an outcome but no answer (the first attempt crashed or failed after its commit) replays it; a request that
 * throws frees its key only when nothing committed under it (after topping up the wallet, the same key may pay);
 * a request that throws after its commit answers its outcome instead. A claim older than the lease with no outcome
 * is taken over with a new token: the first attempt, if it still runs, can then no longer commit. */
export class IdempotencyStore {
  constructor(
    private readonly db: DataSource,
    private readonly leaseSeconds = LEASE_SECONDS,
  ) {}

  async once(scope: IdempotencyScope, fingerprint: string, work: () => Promise<StoredResponse>): Promise<StoredResponse> {
    const deadline = Date.now() + Math.min(WAIT_MS, this.leaseSeconds * 1000);
    const { userId, key, operation } = scope;
    while (Date.now() < deadline) {
      const token = await this.claim(scope, fingerprint);
      if (token) return this.run(scope, { userId, key, token, replay: null }, work);
      const row = await queryOne(this.db, q.keyState<StoredResponse, ClaimOutcome>(scope, this.leaseSeconds));
      if (!row) continue;
      if (row.operation !== operation || row.fingerprint !== fingerprint) throw keyReused();
      if (row.status !== null && row.response) return replayed(row.response);
      if (row.outcome) return this.run(scope, { userId, key, token: row.claim_token ?? '', replay: row.outcome }, work);
      const taken = row.expired ? await this.takeOver(scope) : null;
      if (taken) return this.run(scope, { userId, key, token: taken, replay: null }, work);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw keyInUse();
  }

  /** The claim's token, or null when the key is someone's already. */
  private async claim(scope: IdempotencyScope, fingerprint: string): Promise<string | null> {
    await query(this.db, q.expiredKeyDeleted(scope));
    const token = newId();
    const claimed = await query(this.db, q.keyClaimed(scope, scope.operation, fingerprint, token));
    return claimed.length === 1 ? token : null;
  }

  /** A claim past its lease with nothing committed gets a new token (the old attempt's commit is then refused). */
  private async takeOver(scope: IdempotencyScope): Promise<string | null> {
    const token = newId();
    const taken = await query(this.db, q.keyTakenOver(scope, this.leaseSeconds, token));
    return taken.length === 1 ? token : null;
  }

  private async run(scope: IdempotencyScope, claim: Claim, work: () => Promise<StoredResponse>): Promise<StoredResponse> {
    let response: StoredResponse;
    try {
      response = await withClaim(claim, work);
    } catch (error) {
      const committed = await this.committedOutcome(claim);
      // Nothing committed under this attempt: the key is free again; else the commit stands and is answered.
      if (!committed || claim.replay) throw error;
      return this.run(scope, { ...claim, replay: committed }, work);
    }
    if (claim.replay) response = replayed(response);
    await query(this.db, q.responseStored(scope, response.status, JSON.stringify(response), claim.token));
    return response;
  }

  /** After a failed attempt: frees the key when nothing committed under it, else returns what did. */
  private async committedOutcome(claim: Claim): Promise<ClaimOutcome | null> {
    if (claim.replay) return claim.replay;
    const freed = await query(this.db, q.uncommittedClaimFreed(claim, claim.token)).catch(() => null);
    if (freed === null || freed.length === 1) return null;
    const row = await queryOne(this.db, q.keyOutcome<ClaimOutcome>(claim)).catch(() => undefined);
    return row?.outcome ?? null;
  }
}

const replayed = (response: StoredResponse): StoredResponse => ({ ...response, headers: { ...response.headers, [REPLAYED_HEADER]: 'true' } });
