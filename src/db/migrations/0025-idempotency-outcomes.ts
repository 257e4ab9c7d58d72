import type { Migration } from './migration';

/** An Idempotency-Key's claim and outcome. `claim_token` names the attempt that holds the key (a takeover after the
 * lease writes a new one, so a slow first attempt can no longer commit under it); `outcome` is written by the
 * transaction that charges (what was charged, the ledger row, the resource, the answer), so a retry after a crash
 * or a post-commit error replays it instead of running the work again. */
export const idempotencyOutcomes: Migration = {
  id: '0025-idempotency-outcomes',
  sql: `
ALTER TABLE idempotency_keys ADD COLUMN claim_token text, ADD COLUMN outcome jsonb;
`,
};
