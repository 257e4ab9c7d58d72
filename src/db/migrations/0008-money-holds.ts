import type { Migration } from './migration';

/** Holds (authorise, then capture): the wallet and the key count open holds, so concurrent admissions cannot
 * oversubscribe; a job's hold is one `hold` row closed once by a `capture` or a `release` row. Idempotency-Key
 * answers are kept for 24 hours per user. */
export const moneyHolds: Migration = {
  id: '0008-money-holds',
  sql: `
ALTER TABLE wallets ADD COLUMN held_credits bigint NOT NULL DEFAULT 0 CHECK (held_credits >= 0),
  ADD CONSTRAINT wallets_held_within_balance CHECK (held_credits <= balance_credits);
ALTER TABLE api_keys ADD COLUMN held_credits bigint NOT NULL DEFAULT 0 CHECK (held_credits >= 0),
  ADD CONSTRAINT api_keys_held_within_limit CHECK (spend_limit_credits IS NULL OR spent_credits + held_credits <= spend_limit_credits);
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check,
  ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit', 'charge', 'refund', 'hold', 'capture', 'release'));
CREATE INDEX ledger_job_idx ON ledger_entries (job_id) WHERE job_id IS NOT NULL;

CREATE TABLE idempotency_keys (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key text NOT NULL,
  operation text NOT NULL,
  fingerprint text NOT NULL,
  status integer,
  response jsonb,
  claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
`,
};
