import { sql } from '../sql';

/** The archive of published model schemas (`published_schemas`): rows are inserted and archived, never updated. */

export interface SchemaVersionRow {
  sha256: string;
  size: number;
  published_at: Date;
  archived_at: Date | null;
}

export interface SchemaContentRow {
  sha256: string;
  content: Buffer;
}

/** Archives the current version when it differs from `sha256`; a no-op when it is the same. */
export const archiveCurrentUnless = (dmCtId: string, sha256: string, now: Date) =>
  sql(
    `UPDATE published_schemas SET archived_at = $3
      WHERE dm_ct_id = $1 AND archived_at IS NULL AND sha256 <> $2`,
    [dmCtId, sha256, now],
  );

/** Records `content` as the current version; an archived identical version is made current again. */
export const insertCurrent = (dmCtId: string, sha256: string, content: Buffer, now: Date) =>
  sql(
    `INSERT INTO published_schemas (dm_ct_id, sha256, size, content, published_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (dm_ct_id, sha256) DO UPDATE SET archived_at = NULL`,
    [dmCtId, sha256, content.length, content, now],
  );

export const schemaContent = (dmCtId: string, sha256: string | null) =>
  sql<SchemaContentRow>(
    `SELECT sha256, content FROM published_schemas
      WHERE dm_ct_id = $1 AND (CASE WHEN $2::text IS NULL THEN archived_at IS NULL ELSE sha256 = $2 END)`,
    [dmCtId, sha256],
  );

/** Every version, the current one first, then the newest archived. */
export const schemaVersions = (dmCtId: string) =>
  sql<SchemaVersionRow>(
    `SELECT sha256, size, published_at, archived_at FROM published_schemas
      WHERE dm_ct_id = $1 ORDER BY archived_at DESC NULLS FIRST, id DESC`,
    [dmCtId],
  );
