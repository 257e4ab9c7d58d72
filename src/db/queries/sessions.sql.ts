import { sql } from '../sql';

/** Sign-in: the failed-attempt throttle (`login_attempts`) and browser sessions (`sessions`). */

/** The throttle's transaction-scoped advisory lock on one account or one address (`lockClass` says which). */
export const lockLoginAttempts = (lockClass: number, key: string) => sql('SELECT pg_advisory_xact_lock($1, hashtext($2))', [lockClass, key]);

export interface FailureCountsRow {
  account: number;
  address: number;
}

/** Failures since `since` of the account and of the address (an aggregate without GROUP BY: always one row). */
export const failureCounts = (account: string, address: string, since: Date) =>
  sql<FailureCountsRow>(
    `SELECT count(*) FILTER (WHERE lower(email) = $1)::int AS account, count(*) FILTER (WHERE address = $2)::int AS address
       FROM login_attempts WHERE NOT succeeded AND created_at > $3 AND (lower(email) = $1 OR address = $2)`,
    [account, address, since],
  );

/** An attempt, recorded as a failure until it succeeds. */
export const insertLoginAttempt = (account: string, address: string, now: Date) =>
  sql<{ id: string }>('INSERT INTO login_attempts (email, address, succeeded, created_at) VALUES ($1, $2, false, $3) RETURNING id', [
    account,
    address,
    now,
  ]);

export const markAttemptSucceeded = (attemptId: number) => sql('UPDATE login_attempts SET succeeded = true WHERE id = $1', [attemptId]);

/** A right password forgives the account's earlier failures. */
export const forgetFailedAttempts = (account: string) => sql('DELETE FROM login_attempts WHERE lower(email) = $1 AND NOT succeeded', [account]);

export const insertSession = (session: { tokenHash: string; csrfToken: string; userId: number; createdAt: Date; expiresAt: Date }) =>
  sql('INSERT INTO sessions (token_hash, csrf_token, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    session.tokenHash,
    session.csrfToken,
    session.userId,
    session.createdAt,
    session.expiresAt,
  ]);

export const deleteSession = (tokenHash: string) =>
  sql<{ user_id: string }>('DELETE FROM sessions WHERE token_hash = $1 RETURNING user_id', [tokenHash]);

/** Every session of a user (a new password signs them all out). */
export const deleteSessionsOf = (userId: number) => sql('DELETE FROM sessions WHERE user_id = $1', [userId]);
