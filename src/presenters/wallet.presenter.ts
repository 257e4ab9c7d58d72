import type { Wallet } from '../entities/wallet.entity';

export const CREDITS_PER_DOLLAR = 1000;

/** Credits as a dollar decimal string at 1,000 credits per dollar ("12.345"). */
export function creditsToUsd(credits: number): string {
  const sign = credits < 0 ? '-' : '';
  const abs = Math.abs(credits);
  return `${sign}${Math.floor(abs / CREDITS_PER_DOLLAR)}.${String(abs % CREDITS_PER_DOLLAR).padStart(3, '0')}`;
}

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
    updated_at: view.updatedAt.toISOString(),
  };
}
