import type { Migration } from './migration';

/** Validation-as-a-service packages: a ZIP stored under STORAGE_DIR for its caller, offered at
 * /api/v1/vaas/packages/{id}/ until `expires_at` (VAAS_PACKAGE_TTL_SECONDS); expired rows and files are swept. */
export const vaasPackages: Migration = {
  id: '0013-vaas-packages',
  sql: `
CREATE TABLE vaas_packages (
  id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  dm_ct_id text NOT NULL,
  file_name text NOT NULL,
  storage_path text NOT NULL,
  size integer NOT NULL,
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX vaas_packages_expires_idx ON vaas_packages (expires_at);
`,
};
