/**
 * The one decision of every money movement: given the wallet's and the key's money as their locked rows hold it,
 * what a hold, charge, capture, release or refund changes, or why it is refused. Pure: no I/O, no clock. The
 * single path (LedgerService) and the group-commit batch (request holds) both call it and write only the deltas
 * it returns (src/money/ledger.sql.ts), so the arithmetic of `held_credits`, `balance_credits` and a key's
 * `spent_credits` / `held_credits` has this one home.
 */

export interface WalletMoney {
  balance: number;
  held: number;
}

export interface KeyMoney {
  /** null: no limit. */
  limit: number | null;
  spent: number;
  held: number;
  revoked: boolean;
}

export type Movement =
  /** Reserve `amount` of the available balance (and of the key's remaining limit). */
  | { kind: 'hold'; amount: number }
  /** Take `amount` from the available balance at once. */
  | { kind: 'charge'; amount: number }
  /** Close a hold of `held`, taking min(`amount`, `held`) from the balance. */
  | { kind: 'capture'; held: number; amount: number }
  /** Close a hold of `held`, taking nothing. */
  | { kind: 'release'; held: number }
  /** Give back a charge of `amount`. */
  | { kind: 'refund'; amount: number }
  /** Add `amount` to the balance (a top-up). */
  | { kind: 'credit'; amount: number };

export interface Deltas {
  wallet: { balance: number; held: number };
  key: { spent: number; held: number };
  /** What a capture took (≤ held); 0 otherwise. */
  captured: number;
}

/** Refusals, judged in this order: a revoked key, then the key's limit (403 before 402), then the funds. */
export type Refusal =
  { refused: 'key_revoked' } | { refused: 'key_limit'; limit: number; committed: number } | { refused: 'funds'; available: number };

export type Decision = ({ refused?: undefined } & Deltas) | Refusal;

const none = (): Deltas => ({ wallet: { balance: 0, held: 0 }, key: { spent: 0, held: 0 }, captured: 0 });

/** Whether a new commitment of `amount` fits: the key first (revoked, limit), then the wallet's available balance. */
function refusalOf(wallet: WalletMoney, key: KeyMoney | null, amount: number): Refusal | null {
  if (key?.revoked) return { refused: 'key_revoked' };
  if (key && key.limit !== null && key.spent + key.held + amount > key.limit) {
    return { refused: 'key_limit', limit: key.limit, committed: key.spent + key.held };
  }
  if (wallet.balance - wallet.held < amount) return { refused: 'funds', available: wallet.balance - wallet.held };
  return null;
}

export function decide(wallet: WalletMoney, key: KeyMoney | null, movement: Movement): Decision {
  const d = none();
  switch (movement.kind) {
    case 'hold': {
      const refusal = refusalOf(wallet, key, movement.amount);
      if (refusal) return refusal;
      d.wallet.held = movement.amount;
      if (key) d.key.held = movement.amount;
      return d;
    }
    case 'charge': {
      const refusal = refusalOf(wallet, key, movement.amount);
      if (refusal) return refusal;
      d.wallet.balance = -movement.amount;
      if (key) d.key.spent = movement.amount;
      return d;
    }
    case 'capture': {
      // A key revoked since the hold is never charged: the caller releases instead.
      if (key?.revoked) return { refused: 'key_revoked' };
      d.captured = Math.min(movement.amount, movement.held);
      d.wallet.held = -movement.held;
      d.wallet.balance = -d.captured;
      if (key) {
        d.key.held = -Math.min(movement.held, key.held);
        d.key.spent = d.captured;
      }
      return d;
    }
    case 'release':
      d.wallet.held = -movement.held;
      if (key) d.key.held = -Math.min(movement.held, key.held);
      return d;
    case 'refund':
      d.wallet.balance = movement.amount;
      if (key) d.key.spent = -Math.min(movement.amount, key.spent);
      return d;
    case 'credit':
      d.wallet.balance = movement.amount;
      return d;
  }
}

/** The rows after a decision's deltas (a batch decides its next member on them). */
export function applied(wallet: WalletMoney, key: KeyMoney | null, deltas: Deltas): void {
  wallet.balance += deltas.wallet.balance;
  wallet.held += deltas.wallet.held;
  if (key) {
    key.spent += deltas.key.spent;
    key.held += deltas.key.held;
  }
}
