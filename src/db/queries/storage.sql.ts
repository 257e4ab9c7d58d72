import { sql } from '../sql';

/** The `postgres:` storage backend's statements (migration 0014). */

export interface BlobRef {
  sha256: string;
  size: string;
  chunk_count: number;
}

export const insertChunk = (blob: string, seq: number, bytes: Buffer) =>
  sql(`INSERT INTO storage_chunks (blob, seq, bytes) VALUES ($1, $2, $3)`, [blob, seq, bytes]);

export const dropChunks = (blob: string) => sql(`DELETE FROM storage_chunks WHERE blob = $1`, [blob]);

/** Registers a blob, or touches the one already there (its row lock keeps a concurrent collection off it). */
export const upsertBlob = (sha256: string, size: number, chunkCount: number) =>
  sql<{ inserted: boolean }>(
    `INSERT INTO storage_blobs (sha256, size, chunk_count) VALUES ($1, $2, $3)
     ON CONFLICT (sha256) DO UPDATE SET last_used_at = now() RETURNING (xmax = 0) AS inserted`,
    [sha256, size, chunkCount],
  );

export const claimChunks = (pending: string, sha256: string) => sql(`UPDATE storage_chunks SET blob = $2 WHERE blob = $1`, [pending, sha256]);

/** Points a name at a blob; the blob it pointed at before is touched, so a reader still streaming it keeps it
 * through the grace period. */
export const bindName = (area: string, name: string, sha256: string, size: number) =>
  sql(
    `WITH previous AS (
       UPDATE storage_blobs SET last_used_at = now()
        WHERE sha256 = (SELECT sha256 FROM storage_names WHERE area = $1 AND name = $2)
     )
     INSERT INTO storage_names (area, name, sha256, size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (area, name) DO UPDATE SET sha256 = EXCLUDED.sha256, size = EXCLUDED.size, updated_at = now()`,
    [area, name, sha256, size],
  );

export const unbindName = (area: string, name: string) =>
  sql<{ sha256: string }>(
    `WITH gone AS (DELETE FROM storage_names WHERE area = $1 AND name = $2 RETURNING sha256)
     UPDATE storage_blobs b SET last_used_at = now() FROM gone WHERE b.sha256 = gone.sha256 RETURNING b.sha256`,
    [area, name],
  );

export const notifyChange = (channel: string, payload: string) => sql(`SELECT pg_notify($1, $2)`, [channel, payload]);

export const nameRef = (area: string, name: string) =>
  sql<BlobRef>(
    `SELECT b.sha256, b.size, b.chunk_count FROM storage_names n JOIN storage_blobs b ON b.sha256 = n.sha256
      WHERE n.area = $1 AND n.name = $2`,
    [area, name],
  );

/** Up to `count` chunks from `from` on, in order. */
export const chunkRange = (sha256: string, from: number, count: number) =>
  sql<{ bytes: Buffer }>(`SELECT bytes FROM storage_chunks WHERE blob = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`, [sha256, from, from + count]);

export const listNames = (area: string) =>
  sql<{ name: string; size: string; sha256: string }>(`SELECT name, size, sha256 FROM storage_names WHERE area = $1 ORDER BY name`, [area]);

/** Chunks of uploads that never finished (a killed node), older than the grace period. */
export const collectPending = (graceMs: number) =>
  sql(`DELETE FROM storage_chunks WHERE blob LIKE 'pending:%' AND created_at < now() - make_interval(secs => $1::double precision / 1000)`, [
    graceMs,
  ]);

/** Blobs no name references, untouched for the grace period, with their chunks. */
export const collectBlobs = (graceMs: number) =>
  sql<{ sha256: string }>(
    `WITH gone AS (
       DELETE FROM storage_blobs b
        WHERE b.last_used_at < now() - make_interval(secs => $1::double precision / 1000)
          AND NOT EXISTS (SELECT 1 FROM storage_names n WHERE n.sha256 = b.sha256)
       RETURNING b.sha256
     ), chunks AS (DELETE FROM storage_chunks c USING gone WHERE c.blob = gone.sha256)
     SELECT sha256 FROM gone`,
    [graceMs],
  );

export const storageProbe = () => sql(`SELECT 1 FROM storage_names LIMIT 1`);
