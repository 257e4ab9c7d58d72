import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { one, rows } from '../db/sql';
import { badRequest, conflict, DomainError } from '../lib/errors';

/** The request header of the IETF draft "The Idempotency-Key HTTP Header Field", as payment APIs use it. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;
/** A duplicate waits this long for the first request to answer before it is told to retry (409). */
const WAIT_MS = 60_000;
const POLL_MS = 100;
/** An answer never recorded after this long means its process died: a retry may run the request again. */
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

interface KeyRow {
  operation: string;
  fingerprint: string;
  status: number | null;
  response: StoredResponse | null;
  expired: boolean;
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

/** Runs a request once per (user, key) within 24 hours. The first claims the key and records its answer; a retry
 * with the same request gets that answer without running it again, a different request 422, and a duplicate that
 * arrives while the first runs waits for it. A request that throws frees its key (an error is not an answer:
 * after topping up the wallet, the same key may pay). */
export class IdempotencyStore {
  constructor(private readonly db: DataSource) {}

  async once(scope: IdempotencyScope, fingerprint: string, work: () => Promise<StoredResponse>): Promise<StoredResponse> {
    const deadline = Date.now() + WAIT_MS;
    const { userId, key, operation } = scope;
    while (Date.now() < deadline) {
      if (await this.claim(scope, fingerprint)) return this.run(scope, work);
      const row = await one<KeyRow>(
        this.db,
        `SELECT operation, fingerprint, status, response, claimed_at < now() - make_interval(secs => $3) AS expired
           FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
        [userId, key, LEASE_SECONDS],
      );
      if (!row) continue;
      if (row.operation !== operation || row.fingerprint !== fingerprint) throw keyReused();
      if (row.status !== null && row.response) return { ...row.response, headers: { ...row.response.headers, [REPLAYED_HEADER]: 'true' } };
      if (row.expired && (await this.takeOver(scope))) return this.run(scope, work);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw keyInUse();
  }

  private async claim(scope: IdempotencyScope, fingerprint: string): Promise<boolean> {
    await rows(this.db, `DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at < now() - interval '24 hours'`, [
      scope.userId,
      scope.key,
    ]);
    const claimed = await rows(
      this.db,
      `INSERT INTO idempotency_keys (user_id, key, operation, fingerprint) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING key`,
      [scope.userId, scope.key, scope.operation, fingerprint],
    );
    return claimed.length === 1;
  }

  private async takeOver(scope: IdempotencyScope): Promise<boolean> {
    const taken = await rows(
      this.db,
      `UPDATE idempotency_keys SET claimed_at = clock_timestamp()
        WHERE user_id = $1 AND key = $2 AND status IS NULL AND claimed_at < now() - make_interval(secs => $3) RETURNING key`,
      [scope.userId, scope.key, LEASE_SECONDS],
    );
    return taken.length === 1;
  }

  private async run(scope: IdempotencyScope, work: () => Promise<StoredResponse>): Promise<StoredResponse> {
    let response: StoredResponse;
    try {
      response = await work();
    } catch (error) {
      await rows(this.db, 'DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status IS NULL', [scope.userId, scope.key]);
      throw error;
    }
    await rows(this.db, 'UPDATE idempotency_keys SET status = $3, response = $4 WHERE user_id = $1 AND key = $2', [
      scope.userId,
      scope.key,
      response.status,
      JSON.stringify(response),
    ]);
    return response;
  }
}
