import { sql } from '../sql';

/** Reads of an uploaded data source's content in parts, so no one read holds the whole file. */

/** The stored size of a data source's content in bytes (null: none stored). */
export const contentSize = (ctId: string) =>
  sql<{ size: number | null }>(`SELECT octet_length(content)::int AS size FROM data_sources WHERE ct_id = $1`, [ctId]);

/** `length` bytes of a data source's content from byte `offset` (0-based). */
export const contentPart = (ctId: string, offset: number, length: number) =>
  sql<{ part: Buffer | null }>(`SELECT substring(content FROM $2 FOR $3) AS part FROM data_sources WHERE ct_id = $1`, [ctId, offset + 1, length]);
