import type { Wallet } from '../entities/wallet.entity';
import { creditsToUsd } from './units';

export interface AutoReloadView {
  enabled: boolean;
  thresholdCredits: number;
  amountCredits: number;
}

export interface WalletView {
  balance: string;
  balanceCredits: number;
  /** Reserved by open holds: the available balance is balanceCredits - heldCredits. */
  heldCredits: number;
  autoReload: AutoReloadView;
  updatedAt: Date;
}

export function walletView(wallet: Wallet): WalletView {
  return {
    balance: creditsToUsd(wallet.balanceCredits),
    balanceCredits: wallet.balanceCredits,
    heldCredits: wallet.heldCredits,
    autoReload: {
      enabled: wallet.autoReloadEnabled,
      thresholdCredits: wallet.autoReloadThresholdCredits,
      amountCredits: wallet.autoReloadAmountCredits,
    },
    updatedAt: wallet.updatedAt,
  };
}

/** The contract's nested `auto_reload`, plus the flat dollar fields every studio client reads (clients.md). */
export function renderWallet(view: WalletView) {
  return {
    balance: view.balance,
    balance_credits: view.balanceCredits,
    held_credits: view.heldCredits,
    auto_reload: {
      enabled: view.autoReload.enabled,
      threshold_credits: view.autoReload.thresholdCredits,
      amount_credits: view.autoReload.amountCredits,
    },
    auto_reload_enabled: view.autoReload.enabled,
    auto_reload_threshold: creditsToUsd(view.autoReload.thresholdCredits),
    auto_reload_amount: creditsToUsd(view.autoReload.amountCredits),
    updated_at: view.updatedAt.toISOString(),
  };
}
