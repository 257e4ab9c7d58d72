import type { Migration } from './migration';

/**
 * A request batch's write, in one statement that can also run alone (src/money/request-holds.ts): it locks the
 * wallet, then the keys in id order (the ledger's lock order), and writes the batch only when they still hold what
 * the batch was decided on; otherwise it writes nothing and returns NULL. Inside a transaction that locked and read
 * them already, that always holds. Run alone, it lets a process decide a wallet's next batch on the rows as its own
 * last batch left them and commit it in one round trip, instead of a transaction of four (begin, lock and read,
 * write, commit); rows changed meanwhile (a credit, a job's hold, another process's batch, a key's limit or
 * revocation) make it write nothing, and the batch is decided again on locked rows. Nothing is decided here:
 * src/money/decide.ts decides, this only compares and writes.
 */
export const ledgerApplyRequestBatch: Migration = {
  id: '0035-ledger-apply-request-batch',
  sql: `
CREATE FUNCTION ledger_apply_request_batch(
  p_user_id bigint, p_balance bigint, p_held bigint,
  p_key_ids bigint[], p_key_spent bigint[], p_key_held bigint[], p_key_limit bigint[], p_key_revoked boolean[],
  p_balance_delta bigint, p_held_delta bigint, p_now timestamptz,
  p_delta_key_ids bigint[], p_delta_key_held bigint[], p_delta_key_spent bigint[],
  p_amounts bigint[], p_kinds text[], p_reasons text[], p_idempotency_keys text[], p_api_key_ids bigint[], p_balances_after bigint[])
RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  matched integer;
  ids bigint[];
BEGIN
  PERFORM 1 FROM wallets WHERE user_id = p_user_id AND balance_credits = p_balance AND held_credits = p_held FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  SELECT count(*) INTO matched FROM (
    SELECT 1 FROM api_keys a
      JOIN unnest(p_key_ids, p_key_spent, p_key_held, p_key_limit, p_key_revoked) AS e(id, spent, held, spend_limit, revoked) ON a.id = e.id
     WHERE a.spent_credits = e.spent AND a.held_credits = e.held AND a.spend_limit_credits IS NOT DISTINCT FROM e.spend_limit
       AND (a.revoked_at IS NOT NULL) = e.revoked
     ORDER BY a.id FOR NO KEY UPDATE OF a) locked;
  IF matched <> coalesce(cardinality(p_key_ids), 0) THEN RETURN NULL; END IF;
  UPDATE wallets SET balance_credits = balance_credits + p_balance_delta, held_credits = held_credits + p_held_delta, updated_at = p_now
   WHERE user_id = p_user_id;
  UPDATE api_keys a SET held_credits = a.held_credits + d.held, spent_credits = a.spent_credits + d.spent
    FROM unnest(p_delta_key_ids, p_delta_key_held, p_delta_key_spent) AS d(id, held, spent) WHERE a.id = d.id;
  WITH inserted AS (
    INSERT INTO ledger_entries (user_id, amount_credits, kind, reason, idempotency_key, api_key_id, balance_after_credits)
    SELECT p_user_id, r.amount, r.kind, r.reason, r.idempotency_key, r.api_key_id, r.balance_after
      FROM unnest(p_amounts, p_kinds, p_reasons, p_idempotency_keys, p_api_key_ids, p_balances_after)
           WITH ORDINALITY AS r(amount, kind, reason, idempotency_key, api_key_id, balance_after, n)
     ORDER BY r.n
    RETURNING id)
  SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO ids FROM inserted;
  RETURN ids;
END $$;
`,
};
