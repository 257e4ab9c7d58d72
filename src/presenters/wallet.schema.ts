import { bool, dateTime, int, obj, str } from '../lib/json-schema';

/** renderWallet's body. */
export const walletSchema = obj({
  balance: str(),
  balance_credits: int(),
  held_credits: int(),
  auto_reload: obj({ enabled: bool, threshold_credits: int(), amount_credits: int() }),
  updated_at: dateTime,
});
