import type { Migration } from './migration';

/** The Verifiable Settlement Layer (src/vsl). Issuer keys are P-256: at most one `active` (it signs new Receipts);
 * `retired` and `revoked` keys stay published so old Receipts keep verifying (a revoked one fails them on
 * purpose). A Receipt is stored as the exact JSON text that was signed (triggers empty); its triggers are rows,
 * appended once per party, each with the copy of the party's key document the issuer verified it against. */
export const vsl: Migration = {
  id: '0024-vsl',
  sql: `
CREATE TABLE vsl_signing_keys (
  key_id text PRIMARY KEY,
  public_key_pem text NOT NULL,
  private_key_pem text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'retired', 'revoked')),
  not_before timestamptz NOT NULL,
  not_after timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX vsl_signing_keys_active_idx ON vsl_signing_keys ((true)) WHERE status = 'active';
CREATE TABLE vsl_receipts (
  receipt_id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  api_key_id bigint,
  decision text NOT NULL CHECK (decision IN ('PERMIT', 'DENY')),
  receipt_hash text NOT NULL,
  receipt_json text NOT NULL,
  governance_json text NOT NULL,
  ledger_entry_id bigint,
  created_at timestamptz NOT NULL
);
CREATE INDEX vsl_receipts_user_idx ON vsl_receipts (user_id, created_at);
CREATE TABLE vsl_triggers (
  id bigserial PRIMARY KEY,
  receipt_id text NOT NULL REFERENCES vsl_receipts(receipt_id) ON DELETE CASCADE,
  key_id text NOT NULL,
  signature text NOT NULL,
  signed_at text NOT NULL,
  key_document text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (receipt_id, key_id)
);
`,
};
