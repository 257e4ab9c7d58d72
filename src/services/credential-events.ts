import { notify } from '../db/queries/notify.sql';
import { query } from '../db/sql';
import type { Queryable } from '../db/transaction';

/** The NOTIFY channel that tells every gateway process a user's credentials changed (a key revoked or rotated,
 * a session ended, the password changed), so open sockets re-check theirs at once instead of at their next
 * operation. */
export const CREDENTIAL_CHANNEL = 'credential_changed';

export interface CredentialEvent {
  userId: number;
}

/** Announces a change of `userId`'s credentials. Inside a transaction, the notification leaves on commit only,
 * so no socket re-checks before the change is visible. */
export async function announceCredentialChange(on: Queryable, userId: number): Promise<void> {
  await query(on, notify(CREDENTIAL_CHANNEL, JSON.stringify({ userId } satisfies CredentialEvent)));
}

/** A credential event from its NOTIFY payload; null for anything else. */
export function parseCredentialEvent(payload: string): CredentialEvent | null {
  try {
    const value: unknown = JSON.parse(payload);
    const userId = (value as { userId?: unknown } | null)?.userId;
    return typeof userId === 'number' && Number.isSafeInteger(userId) ? { userId } : null;
  } catch {
    return null;
  }
}
