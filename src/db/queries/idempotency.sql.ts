import { sql } from '../sql';

/** Idempotency-Key claims (0008, outcomes 0025): one row per (user, key), claimed by a token; `outcome` is written in
 * the charging transaction, `status`/`response` once the answer is sent. The row types leave the stored JSON to the
 * caller (`Outcome`, `Response`), so this file needs nothing from the modules that read it. */

interface Scope {
  userId: number;
  key: string;
}

export const expiredKeyDeleted = ({ userId, key }: Scope) =>
  sql(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at < now() - interval '24 hours'`, [userId, key]);

export const keyClaimed = ({ userId, key }: Scope, operation: string, fingerprint: string, token: string) =>
  sql<{ key: string }>(
    `INSERT INTO idempotency_keys (user_id, key, operation, fingerprint, claim_token) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING key`,
    [userId, key, operation, fingerprint, token],
  );

export const keyState = <Response, Outcome>({ userId, key }: Scope, leaseSeconds: number) =>
  sql<{
    operation: string;
    fingerprint: string;
    status: number | null;
    response: Response | null;
    claim_token: string | null;
    outcome: Outcome | null;
    expired: boolean;
  }>(
    `SELECT operation, fingerprint, status, response, claim_token, outcome,
            claimed_at < now() - make_interval(secs => $3) AS expired
       FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
    [userId, key, leaseSeconds],
  );

/** A claim past its lease with nothing committed gets the new token (the old attempt's commit is then refused). */
export const keyTakenOver = ({ userId, key }: Scope, leaseSeconds: number, token: string) =>
  sql<{ key: string }>(
    `UPDATE idempotency_keys SET claimed_at = clock_timestamp(), claim_token = $4
      WHERE user_id = $1 AND key = $2 AND status IS NULL AND outcome IS NULL AND claimed_at < now() - make_interval(secs => $3)
      RETURNING key`,
    [userId, key, leaseSeconds, token],
  );

export const responseStored = ({ userId, key }: Scope, status: number, response: string, token: string | null) =>
  sql('UPDATE idempotency_keys SET status = $3, response = $4 WHERE user_id = $1 AND key = $2 AND claim_token IS NOT DISTINCT FROM $5', [
    userId,
    key,
    status,
    response,
    token,
  ]);

/** Frees the key when nothing committed under this claim. */
export const uncommittedClaimFreed = ({ userId, key }: Scope, token: string) =>
  sql<{ key: string }>(
    'DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND claim_token = $3 AND status IS NULL AND outcome IS NULL RETURNING key',
    [userId, key, token],
  );

export const keyOutcome = <Outcome>({ userId, key }: Scope) =>
  sql<{ outcome: Outcome | null }>('SELECT outcome FROM idempotency_keys WHERE user_id = $1 AND key = $2', [userId, key]);

/** The claim's outcome, written in the transaction that charges; no row when another attempt took the key over. */
export const outcomeRecorded = ({ userId, key }: Scope, token: string, outcome: string) =>
  sql<{ key: string }>(
    `UPDATE idempotency_keys SET outcome = $4::jsonb
      WHERE user_id = $1 AND key = $2 AND claim_token = $3 AND outcome IS NULL AND status IS NULL RETURNING key`,
    [userId, key, token, outcome],
  );

export const outcomeCleared = ({ userId, key }: Scope, token: string) =>
  sql('UPDATE idempotency_keys SET outcome = NULL WHERE user_id = $1 AND key = $2 AND claim_token = $3 AND status IS NULL', [userId, key, token]);
