import { arr, bool, dateTime, int, nullable, obj, str } from '../lib/json-schema';

const keyProperties = {
  id: int(),
  name: nullable(str()),
  prefix: str(),
  scopes: arr(str()),
  spend_limit_credits: nullable(int()),
  spent_credits: int(),
  expires_at: nullable(dateTime),
  expired: bool,
  revoked: bool,
  status: str(),
  created: dateTime,
  last_used: nullable(dateTime),
};

/** renderKey's body. */
export const keySchema = obj(keyProperties);
/** renderIssuedKey's body: the key with its plaintext, shown once. */
export const issuedKeySchema = obj({ ...keyProperties, key: str() });
/** renderLegacyKey's body. */
export const legacyKeySchema = obj({ token: str(), prefix: str(), created: dateTime });
