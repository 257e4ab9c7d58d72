import type { Migration } from './migration';

/** Request-scoped holds (VaaS): a `hold` row without a job, keyed `rhold:{token}`. The maintenance sweep finds the
 * ones older than REQUEST_HOLD_TTL_SECONDS through this partial index instead of scanning the ledger. */
export const requestHolds: Migration = {
  id: '0015-request-holds',
  sql: `
CREATE INDEX ledger_request_holds_idx ON ledger_entries (created_at) WHERE kind = 'hold' AND job_id IS NULL;
`,
};
