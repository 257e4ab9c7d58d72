import type { Migration } from './migration';

/** Ed25519 keys that sign validated instances. Retired keys stay so instances signed with them still verify; at
 * most one key is current (retired_at IS NULL). */
export const signingKeys: Migration = {
  id: '0007-signing-keys',
  sql: `
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  public_x text NOT NULL,
  private_key_pem text NOT NULL,
  created_at timestamptz NOT NULL,
  retired_at timestamptz
);
CREATE UNIQUE INDEX signing_keys_current_idx ON signing_keys ((true)) WHERE retired_at IS NULL;
`,
};
