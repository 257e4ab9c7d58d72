import type { Migration } from './migration';

/** The `postgres:` storage backend: content-addressed blobs in 1 MiB chunks, deduplicated by sha256, and the names
 * (area, name) that reference them. A blob no name references is collected after a grace period; chunks of an
 * upload that never finished carry a `pending:` key and are collected the same way. */
export const storageBlobs: Migration = {
  id: '0014-storage-blobs',
  sql: `
CREATE TABLE storage_blobs (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint NOT NULL CHECK (size >= 0),
  chunk_count integer NOT NULL CHECK (chunk_count >= 0),
  last_used_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE storage_chunks (
  blob text NOT NULL,
  seq integer NOT NULL CHECK (seq >= 0),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blob, seq)
);

CREATE TABLE storage_names (
  area text NOT NULL CHECK (area IN ('zip', 'dmlib', 'packages', 'apps')),
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$'),
  sha256 text NOT NULL REFERENCES storage_blobs(sha256),
  size bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (area, name)
);
CREATE INDEX storage_names_sha256_idx ON storage_names (sha256);
`,
};
