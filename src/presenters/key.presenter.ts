import type { ApiKey } from '../entities/api-key.entity';
import { keyStatus } from '../services/keys.service';

/** The fields of a listed key that leave the process; never the hash. */
export function presentKey(key: ApiKey, now: Date) {
  const status = keyStatus(key, now);
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    spend_limit_credits: key.spendLimitCredits,
    spent_credits: key.spentCredits,
    expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
    expired: status === 'expired',
    revoked: status === 'revoked',
    status,
    created: key.createdAt.toISOString(),
    last_used: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
  };
}

export function presentIssuedKey(key: ApiKey, plaintext: string, now: Date) {
  return { ...presentKey(key, now), key: plaintext };
}
