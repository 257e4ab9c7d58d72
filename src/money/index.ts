/**
 * The money module's front door: the ledger (charges, job holds, refunds, credits), request holds and their group
 * commit, the price table, wallet and key views, credit units and the ledger's refusals. Nothing outside
 * src/money reaches behind this file.
 */
export { chargeHeaders, creditsToUsd } from './units';
export { GroupCommit, type Settled } from './group-commit';
export { LedgerService, type ChargeRequest, type ChargeResult } from './ledger.service';
export type { RequestCapture, RequestCharge, RequestHold, RequestHoldRequest } from './request-holds';
export { renderWallet, walletView, type AutoReloadView, type WalletView } from './wallet-view';
export { CHARGES, csvUploadPrice, PRICES, unpaidTreePrice, type ChargeDoor } from './prices';
export { clearOutcome, currentClaim, decodeResult, recordOutcome, replayOr, withClaim, type Claim, type ClaimOutcome } from './claims';
export type { LedgerEntryView, LedgerPageView } from './ledger-entry-view';
