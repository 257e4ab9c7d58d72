import { sql } from '../sql';

/** The allow-listed reference schemas (`reference_schemas`), fetched once and kept (src/xml/reference-schemas.ts). */

export interface ReferenceSchemaRow {
  content: string;
}

export const referenceSchema = (url: string) => sql<ReferenceSchemaRow>('SELECT content FROM reference_schemas WHERE url = $1', [url]);

/** Stores a fetched schema; another process's copy, stored first, wins (every process validates against one text). */
export const insertReferenceSchema = (url: string, sha256: string, content: string, fetchedFrom: string) =>
  sql(`INSERT INTO reference_schemas (url, sha256, content, fetched_from) VALUES ($1, $2, $3, $4) ON CONFLICT (url) DO NOTHING`, [
    url,
    sha256,
    content,
    fetchedFrom,
  ]);
