import type { Wallet } from '../entities/wallet.entity';
import { creditsToUsd } from '../services/ledger.service';

export function presentWallet(wallet: Wallet) {
  return {
    balance: creditsToUsd(wallet.balanceCredits),
    balance_credits: wallet.balanceCredits,
    auto_reload: {
      enabled: wallet.autoReloadEnabled,
      threshold_credits: wallet.autoReloadThresholdCredits,
      amount_credits: wallet.autoReloadAmountCredits,
    },
    updated_at: wallet.updatedAt.toISOString(),
  };
}
