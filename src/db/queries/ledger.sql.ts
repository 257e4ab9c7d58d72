import { sql } from '../sql';
import type { LedgerKind } from '../../entities/ledger-entry.entity';

/** The ledger's raw SQL. Lock order, for every transaction that moves money or changes keys: the user row (key
 * management only, FOR NO KEY UPDATE), then the wallet, then the API key rows, then ledger inserts. FOR NO KEY
 * UPDATE never blocks the FOR KEY SHARE that foreign keys take when a ledger row or a job is inserted. bigint
 * columns come back as text. */

export interface WalletMoneyRow {
  balance_credits: string;
  held_credits: string;
}

/** The first lock of a money transaction. */
export const lockWallet = (userId: number) =>
  sql<WalletMoneyRow>('SELECT balance_credits, held_credits FROM wallets WHERE user_id = $1 FOR NO KEY UPDATE', [userId]);

/** The wallet's money, unlocked (a pre-check that decides nothing it writes). */
export const walletMoney = (userId: number) => sql<WalletMoneyRow>('SELECT balance_credits, held_credits FROM wallets WHERE user_id = $1', [userId]);

export interface IdRow {
  id: string;
}

/** Writes a decided movement of a locked wallet (src/money/decide.ts decides it; nothing is judged here). */
export const moveWallet = (userId: number, balanceDelta: number, heldDelta: number, now: Date) =>
  sql<WalletMoneyRow>(
    `UPDATE wallets SET balance_credits = balance_credits + $2, held_credits = held_credits + $3, updated_at = $4
      WHERE user_id = $1 RETURNING balance_credits, held_credits`,
    [userId, balanceDelta, heldDelta, now],
  );

/** Writes a decided movement of a locked key. */
export const moveKey = (keyId: number, spentDelta: number, heldDelta: number) =>
  sql<IdRow>('UPDATE api_keys SET spent_credits = spent_credits + $2, held_credits = held_credits + $3 WHERE id = $1 RETURNING id', [
    keyId,
    spentDelta,
    heldDelta,
  ]);

export interface KeySpendRow {
  spend_limit_credits: string | null;
  spent_credits: string;
  held_credits: string;
  revoked: boolean;
}

export const keySpend = (keyId: number) =>
  sql<KeySpendRow>('SELECT spend_limit_credits, spent_credits, held_credits, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = $1', [keyId]);

/** A key's money, locked after its wallet (the lock order above). */
export const lockKey = (keyId: number) =>
  sql<KeySpendRow>(
    'SELECT spend_limit_credits, spent_credits, held_credits, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = $1 FOR NO KEY UPDATE',
    [keyId],
  );

export interface LedgerInsert {
  userId: number;
  amount: number;
  kind: LedgerKind;
  reason: string;
  idempotencyKey?: string;
  apiKeyId?: number | null;
  jobId?: number | null;
  balanceAfter: number;
}

export const insertEntry = (e: LedgerInsert) =>
  sql<IdRow>(
    `INSERT INTO ledger_entries (user_id, amount_credits, kind, reason, idempotency_key, api_key_id, job_id, balance_after_credits)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [e.userId, e.amount, e.kind, e.reason, e.idempotencyKey ?? null, e.apiKeyId ?? null, e.jobId ?? null, e.balanceAfter],
  );

export interface EntryByKeyRow {
  id: string;
  kind: LedgerKind;
  balance_after_credits: string;
}

export const entryByKey = (idempotencyKey: string) =>
  sql<EntryByKeyRow>('SELECT id, kind, balance_after_credits FROM ledger_entries WHERE idempotency_key = $1', [idempotencyKey]);

/** A job's one hold: its key, and the closing row's key. */
export const holdKeyOf = (jobId: number) => `hold:${jobId}`;
export const holdClosedKeyOf = (jobId: number) => `hold:${jobId}:closed`;

export interface JobHoldRow {
  user_id: string;
  held: string;
  api_key_id: string | null;
  closed_by: 'capture' | 'release' | null;
}

export const jobHold = (jobId: number) =>
  sql<JobHoldRow>(
    `SELECT h.user_id, -h.amount_credits AS held, h.api_key_id,
            (SELECT c.kind FROM ledger_entries c WHERE c.idempotency_key = $3) AS closed_by
       FROM ledger_entries h WHERE h.idempotency_key = $2 AND h.job_id = $1`,
    [jobId, holdKeyOf(jobId), holdClosedKeyOf(jobId)],
  );

export interface JobIdRow {
  job_id: string;
}

/** Holds still open although their job has ended (a give-up the runner did not see, a lost worker). */
export const openHoldsOfEndedJobs = () =>
  sql<JobIdRow>(
    `SELECT h.job_id FROM ledger_entries h JOIN jobs j ON j.id = h.job_id
      WHERE h.kind = 'hold' AND j.status IN ('completed', 'failed')
        AND NOT EXISTS (SELECT 1 FROM ledger_entries c WHERE c.idempotency_key = h.idempotency_key || ':closed')`,
  );

export interface JobCostRow {
  job_id: string;
  cost: string;
}

/** What jobs cost: their charges less refunds (holds are reservations, not costs). */
export const jobCosts = (jobIds: number[]) =>
  sql<JobCostRow>(
    `SELECT job_id, coalesce(-sum(amount_credits), 0)::bigint AS cost FROM ledger_entries
      WHERE job_id = ANY($1) AND kind IN ('charge', 'refund') GROUP BY job_id`,
    [jobIds],
  );

/** A job's charges that no refund returned yet, oldest first. */
export const unrefundedJobCharges = (jobId: number) =>
  sql<IdRow>(
    `SELECT c.id FROM ledger_entries c
      WHERE c.job_id = $1 AND c.kind = 'charge' AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.idempotency_key = 'refund:' || c.id)
      ORDER BY c.id`,
    [jobId],
  );

export interface ChargeEntryRow {
  user_id: string;
  amount_credits: string;
  api_key_id: string | null;
  job_id: string | null;
}

export const chargeEntry = (id: number) =>
  sql<ChargeEntryRow>("SELECT user_id, amount_credits, api_key_id, job_id FROM ledger_entries WHERE id = $1 AND kind = 'charge'", [id]);

/** A request-scoped hold (no job): its row's key, and the closing row's key. `token` is generated per hold. */
export const requestHoldKeyOf = (token: string) => `rhold:${token}`;
export const requestHoldClosedKeyOf = (token: string) => `rhold:${token}:closed`;

/** A charge's refund row is keyed by the charge's id (unique): a charge is refunded at most once. */
export const refundKeyOf = (chargeEntryId: number) => `refund:${chargeEntryId}`;

export interface RequestHoldStateRow {
  held: string;
  closed_by: 'capture' | 'release' | null;
}

export const requestHoldState = (token: string) =>
  sql<RequestHoldStateRow>(
    `SELECT -h.amount_credits AS held, (SELECT c.kind FROM ledger_entries c WHERE c.idempotency_key = $2) AS closed_by
       FROM ledger_entries h WHERE h.idempotency_key = $1 AND h.kind = 'hold' AND h.job_id IS NULL`,
    [requestHoldKeyOf(token), requestHoldClosedKeyOf(token)],
  );

export interface OpenRequestHoldRow {
  token: string;
  user_id: string;
}

/** Request holds a sweep reads at most at once; when it found fewer, it saw every open one before its cutoff. */
export const REQUEST_HOLD_SWEEP_BATCH = 500;

/** Request holds still open after `cutoff` (their process died between hold and capture), oldest first, among
 * those created since the sweep's mark: a sweep reads the holds of the time since the last one, not all. */
export const openRequestHoldsBefore = (cutoff: Date) =>
  sql<OpenRequestHoldRow>(
    `SELECT substr(h.idempotency_key, 7) AS token, h.user_id FROM ledger_entries h
      WHERE h.kind = 'hold' AND h.job_id IS NULL AND h.created_at < $1 AND h.idempotency_key LIKE 'rhold:%'
        AND h.created_at >= (SELECT examined_before FROM ledger_sweep_marks WHERE sweep = 'request_holds')
        AND NOT EXISTS (SELECT 1 FROM ledger_entries c WHERE c.idempotency_key = h.idempotency_key || ':closed')
      ORDER BY h.created_at, h.id LIMIT $2`,
    [cutoff, REQUEST_HOLD_SWEEP_BATCH],
  );

/** After a sweep that saw every open hold before `cutoff`: the mark moves to the newest hold before it, less a
 * minute for a transaction that had not committed it yet (a hold row is stamped when inserted). Never back. */
export const advanceRequestHoldSweepMark = (cutoff: Date) =>
  sql(
    `UPDATE ledger_sweep_marks SET examined_before = greatest(examined_before,
       (SELECT max(created_at) FROM ledger_entries WHERE kind = 'hold' AND job_id IS NULL AND created_at < $1) - interval '1 minute')
      WHERE sweep = 'request_holds'`,
    [cutoff],
  );

interface RequestHoldOfRow {
  token: string;
  held: string;
  api_key_id: string | null;
  closed_by: 'capture' | 'release' | null;
}

interface KeyMoneyRow extends KeySpendRow {
  id: string;
}

export interface RequestBatchLockRow {
  balance_credits: string;
  held_credits: string;
  holds: RequestHoldOfRow[] | null;
  keys: KeyMoneyRow[] | null;
}

/** A batch's locks in one round trip, in the usual order: the wallet, then (lateral to it, so after it) the keys
 * of the batch's holds and of the holds it closes, in id order; with the holds it closes by token, each with the
 * kind of its closing row. A close committed by another process while this waited for the wallet is not seen:
 * the closing row's unique key then refuses the batch's. No row without a wallet. The holds are fetched by their
 * unique key alone behind a fence (`found`): with the other conditions beside it, the planner may walk the partial
 * index of every request hold ever made, or all of the user's rows, when its statistics lag a fast-growing ledger
 * (measured: 354 index rows read a VaaS request in a 4 s bench). */
export const lockRequestBatch = (userId: number, keyIds: number[], tokens: string[]) =>
  sql<RequestBatchLockRow>(
    `WITH w AS MATERIALIZED (
       SELECT user_id, balance_credits, held_credits FROM wallets WHERE user_id = $1 FOR NO KEY UPDATE),
     found AS MATERIALIZED (SELECT * FROM ledger_entries WHERE idempotency_key = ANY($3)),
     h AS MATERIALIZED (
       SELECT substr(h.idempotency_key, 7) AS token, (-h.amount_credits)::text AS held, h.api_key_id::text AS api_key_id,
              (SELECT c.kind FROM ledger_entries c WHERE c.idempotency_key = h.idempotency_key || ':closed') AS closed_by
         FROM found h
        WHERE h.user_id = $1 AND h.kind = 'hold' AND h.job_id IS NULL)
     SELECT w.balance_credits, w.held_credits, (SELECT json_agg(h) FROM h) AS holds, k.keys
       FROM w LEFT JOIN LATERAL (
         SELECT json_agg(locked ORDER BY locked.id::bigint) AS keys FROM (
           SELECT id::text AS id, spend_limit_credits::text AS spend_limit_credits, spent_credits::text AS spent_credits,
                  held_credits::text AS held_credits, revoked_at IS NOT NULL AS revoked
             FROM api_keys
            WHERE w.user_id IS NOT NULL AND (id = ANY($2) OR id IN (SELECT h.api_key_id::bigint FROM h))
            ORDER BY api_keys.id FOR NO KEY UPDATE) locked) k ON true`,
    [userId, keyIds, tokens.map(requestHoldKeyOf)],
  );

/** This transaction's commit does not wait for the WAL flush. For a batch that only places request holds: a hold
 * is promised to nobody outside until its request closes it, and that capture or release, synchronous and later in
 * the WAL, flushes the hold with it; a server crash before then loses the hold with everything after it. */
export const commitWithoutFlush = () => sql(`SET LOCAL synchronous_commit = off`);

/** A key's money as a batch read it: what its write expects to find. */
interface KeyMoneyExpected {
  id: number;
  spent: number;
  held: number;
  limit: number | null;
  revoked: boolean;
}

export interface RequestBatchWrite {
  userId: number;
  /** The wallet and the keys as the batch was decided on them (before its deltas). */
  expected: { balance: number; held: number; keys: KeyMoneyExpected[] };
  heldDelta: number;
  balanceDelta: number;
  now: Date;
  keys: { id: number; held: number; spent: number }[];
  entries: Omit<LedgerInsert, 'userId' | 'jobId'>[];
}

/** A batch of request movements of one wallet (migration 0035, ledger_apply_request_batch): the wallet, then the
 * keys locked; when they hold what `expected` says, the wallet and each key updated once by their net change and the
 * ledger rows inserted in one statement, their ids returned in insertion order; otherwise nothing written and
 * `ids` null. Alone it is its own transaction; in one that locked the rows, `expected` is what it read. */
export const applyRequestBatch = (b: RequestBatchWrite) =>
  sql<{ ids: string[] | null }>(
    `SELECT ledger_apply_request_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) AS ids`,
    [
      b.userId,
      b.expected.balance,
      b.expected.held,
      b.expected.keys.map((k) => k.id),
      b.expected.keys.map((k) => k.spent),
      b.expected.keys.map((k) => k.held),
      b.expected.keys.map((k) => k.limit),
      b.expected.keys.map((k) => k.revoked),
      b.balanceDelta,
      b.heldDelta,
      b.now,
      b.keys.map((k) => k.id),
      b.keys.map((k) => k.held),
      b.keys.map((k) => k.spent),
      b.entries.map((e) => e.amount),
      b.entries.map((e) => e.kind),
      b.entries.map((e) => e.reason),
      b.entries.map((e) => e.idempotencyKey ?? null),
      b.entries.map((e) => e.apiKeyId ?? null),
      b.entries.map((e) => e.balanceAfter),
    ],
  );
