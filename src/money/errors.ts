import { DomainError } from '../lib/errors';
import type { Refusal } from './decide';
import { creditsToUsd } from './units';

/** The ledger's refusals, in the contract's shape (402 funds, 403 key limit or revoked key, 409 a closed hold). */

const insufficientFunds = (estimated: number, balance: number) =>
  new DomainError(402, 'insufficient_funds', `Insufficient funds: this needs ${estimated} credits and the wallet holds ${balance}.`, {
    estimated_cost_credits: estimated,
    balance_credits: balance,
    balance_remaining_credits: balance,
    estimated_cost: creditsToUsd(estimated),
    balance: creditsToUsd(balance),
  });

const keySpendLimit = (limit: number, spent: number, needed: number) =>
  new DomainError(403, 'key_spend_limit', `This API key's spend limit is ${limit} credits; it has spent ${spent} and this needs ${needed}.`, {
    spend_limit_credits: limit,
    spent_credits: spent,
    estimated_cost_credits: needed,
  });

export const keyRevoked = () =>
  new DomainError(403, 'key_revoked', 'The API key that started this work was revoked: nothing was charged and its hold was released.');

export const holdClosed = () => new DomainError(409, 'hold_released', 'This job’s hold was released; it can no longer be charged.');

export const requestHoldClosed = () => new DomainError(409, 'hold_released', 'This request’s hold was released; it can no longer be charged.');
export const keyRevokedDuringRequest = () =>
  new DomainError(403, 'key_revoked', 'The API key that made this request was revoked: nothing was charged and its hold was released.');

/** A decision's refusal in the contract's shape: 403 key revoked or key limit, else 402 funds. */
export function refusalError(refusal: Refusal, amount: number, revoked: () => DomainError = keyRevoked): DomainError {
  if (refusal.refused === 'key_revoked') return revoked();
  if (refusal.refused === 'key_limit') return keySpendLimit(refusal.limit, refusal.committed, amount);
  return insufficientFunds(amount, refusal.available);
}
