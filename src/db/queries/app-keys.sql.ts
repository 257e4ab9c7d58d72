import { sql } from '../sql';

/** Interface B's organisation keys (`app_api_keys`). */

export interface AppKeyOwnerRow {
  organization: string;
  contact_email: string;
  is_active: boolean;
}

export const lockAppKey = (id: number) =>
  sql<AppKeyOwnerRow>('SELECT organization, contact_email, is_active FROM app_api_keys WHERE id = $1 FOR UPDATE', [id]);

/** Deactivates the key; an inactive key keeps its first deactivation time. */
export const deactivateAppKey = (id: number, now: Date) =>
  sql('UPDATE app_api_keys SET is_active = false, deactivated_at = $2 WHERE id = $1 AND is_active', [id, now]);

export const insertAppKey = (key: {
  organization: string;
  contactEmail: string;
  keyHash: string;
  prefix: string;
  createdAt: Date;
  replacesId: number | null;
}) =>
  sql<{ id: string }>(
    `INSERT INTO app_api_keys (organization, contact_email, key_hash, prefix, created_at, replaces_id)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [key.organization, key.contactEmail, key.keyHash, key.prefix, key.createdAt, key.replacesId],
  );
