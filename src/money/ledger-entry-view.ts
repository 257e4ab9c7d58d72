import type { LedgerHistoryRow } from '../db/queries/ledger-history.sql';
import type { LedgerKind } from '../entities/ledger-entry.entity';

/** One ledger entry as its owner sees it: what moved, why, and the job or key it was for. */
export interface LedgerEntryView {
  id: number;
  kind: LedgerKind;
  amountCredits: number;
  balanceAfterCredits: number;
  reason: string;
  created: Date;
  job: { ctId: string; kind: string } | null;
  key: { name: string | null; prefix: string } | null;
}

/** A page of the ledger, newest first; `nextBefore` continues it (null on the last page). */
export interface LedgerPageView {
  entries: LedgerEntryView[];
  nextBefore: number | null;
}

export function ledgerEntryView(row: LedgerHistoryRow): LedgerEntryView {
  return {
    id: Number(row.id),
    kind: row.kind as LedgerKind,
    amountCredits: Number(row.amount_credits),
    balanceAfterCredits: Number(row.balance_after_credits),
    reason: row.reason,
    created: row.created_at,
    job: row.job_ct_id && row.job_kind ? { ctId: row.job_ct_id, kind: row.job_kind } : null,
    key: row.key_prefix ? { name: row.key_name, prefix: row.key_prefix } : null,
  };
}
