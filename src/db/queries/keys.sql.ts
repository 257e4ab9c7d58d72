import { sql } from '../sql';

/** Revokes a user's live legacy key (a named key replaces it, and a new legacy key replaces the old one). */
export const revokeLegacyKey = (userId: number, now: Date) =>
  sql<{ id: string }>('UPDATE api_keys SET revoked_at = $2 WHERE user_id = $1 AND is_legacy AND revoked_at IS NULL RETURNING id', [userId, now]);
