import { bool, dateTime, int, obj, str } from '../lib/json-schema';

/** A dollar amount as clients read it (`creditsToUsd`: three decimals). */
export const dollarsSchema = str({ pattern: '^-?\\d+\\.\\d{3}$', description: 'US dollars' });

/** renderWallet's body: the contract's nested `auto_reload`, and the flat dollar fields studio clients read. */
export const walletSchema = obj({
  balance: str(),
  balance_credits: int(),
  held_credits: int(),
  auto_reload: obj({ enabled: bool, threshold_credits: int(), amount_credits: int() }),
  auto_reload_enabled: bool,
  auto_reload_threshold: dollarsSchema,
  auto_reload_amount: dollarsSchema,
  updated_at: dateTime,
});
