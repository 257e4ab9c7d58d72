import type { Migration } from './migration';

/** Reference schemas (the SDC4 `sdc4.xsd`) fetched once from an allow-listed namespace and kept, so validation
 * works offline from then on; the sha256 says which copy every later validation used. */
export const referenceSchemas: Migration = {
  id: '0006-reference-schemas',
  sql: `
CREATE TABLE reference_schemas (
  url text PRIMARY KEY,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content text NOT NULL,
  fetched_from text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now()
);
`,
};
