/**
 * The money module's front door: the ledger (charges, job holds, refunds, credits), request holds and their group
 * commit, the price table, wallet and key views, credit units and the ledger's refusals. Nothing outside
 * src/money reaches behind this file.
 */
export { CREDITS_PER_DOLLAR, chargeHeaders, creditsToUsd } from './units';
export { holdClosed, insufficientFunds, keyRevoked, keyRevokedDuringRequest, keySpendLimit, requestHoldClosed } from './errors';
export { GroupCommit, type Settled } from './group-commit';
export { LedgerService, type ChargeRequest, type ChargeResult, type HoldRequest, type RequestChargeRequest } from './ledger.service';
export { decide, type Decision, type Deltas, type Movement, type Refusal } from './decide';
export { RequestHolds, type CaptureOutcome, type RequestCapture, type RequestHold, type RequestHoldRequest } from './request-holds';
export { renderWallet, walletView, type AutoReloadView, type WalletView } from './wallet-view';
export type { Clock, Payer } from './types';
export { CHARGES, csvUploadPrice, PRICES, type ChargeDoor } from './prices';
export {
  claimLost,
  clearOutcome,
  currentClaim,
  decodeResult,
  encodeResult,
  recordOutcome,
  replayOr,
  withClaim,
  type Claim,
  type ClaimOutcome,
  type Outcome,
} from './claims';
