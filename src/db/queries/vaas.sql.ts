import { sql, type Sql } from '../sql';

/** Validation as a service: the current schema of a model by its sha256, and the stored packages (0013). */

export interface VaasPackageRow {
  id: string;
  user_id: string;
  dm_ct_id: string;
  file_name: string;
  storage_path: string;
  size: number;
  sha256: string;
  expires_at: Date;
}

export const insertPackage = (row: Omit<VaasPackageRow, 'user_id'> & { user_id: number }) =>
  sql(
    `INSERT INTO vaas_packages (id, user_id, dm_ct_id, file_name, storage_path, size, sha256, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, row.user_id, row.dm_ct_id, row.file_name, row.storage_path, row.size, row.sha256, row.expires_at],
  );

/** A package of this user, not yet expired. */
export const livePackage = (id: string, userId: number, now: Date) =>
  sql<VaasPackageRow>('SELECT * FROM vaas_packages WHERE id = $1 AND user_id = $2 AND expires_at > $3', [id, userId, now]);

/** Expired packages, removed from the table; the caller deletes their files. */
export const takeExpiredPackages = (now: Date, limit: number) =>
  sql<{ storage_path: string }>(
    `DELETE FROM vaas_packages WHERE id IN (SELECT id FROM vaas_packages WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)
     RETURNING storage_path`,
    [now, limit],
  );

export interface VaasModelRow {
  ct_id: string;
  title: string;
  published: boolean;
  /** The hosted current schema's sha256 (published models; null until first served). */
  sha256: string | null;
}

/** The model an instance names, if the viewer may see it (the catalog's own visibility rule, `visible`), with its
 * current schema's sha256: one round trip instead of three. */
export const vaasModel = (visible: Sql<{ id: string }>) =>
  sql<VaasModelRow>(
    `SELECT dm.ct_id, dm.title, dm.published, ps.sha256 FROM data_models dm
       LEFT JOIN published_schemas ps ON ps.dm_ct_id = dm.ct_id AND ps.archived_at IS NULL
      WHERE dm.id = (${visible.text})`,
    visible.values,
  );

export const deletePackage = (id: string) => sql<{ storage_path: string }>('DELETE FROM vaas_packages WHERE id = $1 RETURNING storage_path', [id]);

/** Serialises one user's package saves, so the quota check and the insert see each other. */
export const lockUserPackages = (userId: number) => sql("SELECT pg_advisory_xact_lock(hashtext('vaas_packages'), $1::int)", [userId]);

export const livePackageBytes = (userId: number, now: Date) =>
  sql<{ bytes: string }>('SELECT coalesce(sum(size), 0) AS bytes FROM vaas_packages WHERE user_id = $1 AND expires_at > $2', [userId, now]);
