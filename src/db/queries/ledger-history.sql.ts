import { sql } from '../sql';

export interface LedgerHistoryRow {
  id: string;
  kind: string;
  amount_credits: string;
  balance_after_credits: string;
  reason: string;
  created_at: Date;
  job_ct_id: string | null;
  job_kind: string | null;
  key_name: string | null;
  key_prefix: string | null;
}

/** A user's ledger entries, newest first, before entry `beforeId` (from the newest when null), each with the
 * job and the key it was for; on the (user_id, id) index. */
export const ledgerHistory = (userId: number, beforeId: number | null, limit: number) =>
  sql<LedgerHistoryRow>(
    `SELECT l.id, l.kind, l.amount_credits, l.balance_after_credits, l.reason, l.created_at,
            j.ct_id AS job_ct_id, j.kind AS job_kind, k.name AS key_name, k.prefix AS key_prefix
       FROM ledger_entries l
       LEFT JOIN jobs j ON j.id = l.job_id
       LEFT JOIN api_keys k ON k.id = l.api_key_id
      WHERE l.user_id = $1 AND ($2::bigint IS NULL OR l.id < $2)
      ORDER BY l.id DESC LIMIT $3`,
    [userId, beforeId, limit],
  );
