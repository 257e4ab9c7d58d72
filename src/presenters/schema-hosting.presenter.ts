import type { Static } from '../lib/json-schema';
import type { schemaVersionsSchema } from './schema-hosting.schema';

/** Published model schemas as `/dmlib/` serves them. */

export interface HostedSchemaView {
  fileName: string;
  sha256: string;
  content: Buffer;
}

export interface SchemaVersionView {
  sha256: string;
  size: number;
  archivedAt: Date | null;
  current: boolean;
  url: string;
}

/** schemaVersionsSchema's body in camelCase, with Dates. */
export interface SchemaVersionsView {
  dmCtId: string;
  currentSha256: string;
  schemaUrl: string;
  versions: SchemaVersionView[];
}

/** A strong validator: the bytes' sha256 (a schema version's bytes never change). */
export const schemaEtag = (sha256: string) => `"${sha256}"`;

export const renderSchemaVersions = (view: SchemaVersionsView): Static<typeof schemaVersionsSchema> => ({
  dm_ct_id: view.dmCtId,
  current_sha256: view.currentSha256,
  schema_url: view.schemaUrl,
  versions: view.versions.map((v) => ({
    sha256: v.sha256,
    size: v.size,
    archived_at: v.archivedAt ? v.archivedAt.toISOString() : null,
    current: v.current,
    url: v.url,
  })),
});
