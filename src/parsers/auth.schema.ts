import { arr, bool, int, nullable, obj, str } from '../lib/json-schema';

/** parseLogin's body. */
export const loginBodySchema = obj({ email: str(), password: str() });
/** parseCreateKey's body (every field optional: all scopes, no limit, no expiry). */
export const createKeyBodySchema = obj({ name: str(), scopes: arr(str()), spend_limit_credits: nullable(int()), expires_in_days: nullable(int()) }, [
  'name',
  'scopes',
  'spend_limit_credits',
  'expires_in_days',
]);
/** parseProfileUpdate's body: only the fields sent change. */
export const profileBodySchema = obj({ name: str(), email: str() }, ['name', 'email']);
/** parseAutoReload's body: only the fields sent change. */
export const autoReloadBodySchema = obj({ enabled: bool, threshold_credits: int(), amount_credits: int() }, [
  'enabled',
  'threshold_credits',
  'amount_credits',
]);
