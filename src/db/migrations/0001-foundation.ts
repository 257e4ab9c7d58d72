import type { Migration } from './migration';

export const foundation: Migration = {
  id: '0001-foundation',
  sql: `
CREATE TABLE users (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  is_staff boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE sessions (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  csrf_token text NOT NULL,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text,
  is_legacy boolean NOT NULL DEFAULT false,
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  scopes text[] NOT NULL,
  spend_limit_credits bigint CHECK (spend_limit_credits >= 0),
  spent_credits bigint NOT NULL DEFAULT 0 CHECK (spent_credits >= 0),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (spend_limit_credits IS NULL OR spent_credits <= spend_limit_credits)
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at DESC);
-- One legacy key per user; named keys are unique by name while not revoked (expiry is checked by the service,
-- since an index predicate cannot read the clock).
CREATE UNIQUE INDEX api_keys_one_legacy ON api_keys (user_id) WHERE is_legacy AND revoked_at IS NULL;

CREATE TABLE wallets (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  balance_credits bigint NOT NULL DEFAULT 0 CHECK (balance_credits >= 0),
  auto_reload_enabled boolean NOT NULL DEFAULT false,
  auto_reload_threshold_credits bigint NOT NULL DEFAULT 0 CHECK (auto_reload_threshold_credits >= 0),
  auto_reload_amount_credits bigint NOT NULL DEFAULT 0 CHECK (auto_reload_amount_credits >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Append-only: the wallet balance changes only in the same transaction as a row here.
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  amount_credits bigint NOT NULL CHECK (amount_credits <> 0),
  kind text NOT NULL CHECK (kind IN ('credit', 'charge', 'refund')),
  reason text NOT NULL,
  idempotency_key text UNIQUE,
  api_key_id bigint REFERENCES api_keys(id),
  job_id bigint,
  balance_after_credits bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX ledger_user_idx ON ledger_entries (user_id, id);
CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'ledger_entries is append-only'; END $$;
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

CREATE TABLE login_attempts (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  address text NOT NULL,
  succeeded boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_email_idx ON login_attempts (lower(email), created_at);
CREATE INDEX login_attempts_address_idx ON login_attempts (address, created_at);
`,
};
