import type { Static } from '../lib/json-schema';
import type { issuedKeySchema, keySchema, legacyKeySchema } from './key.schema';
import { keyStatus, type ApiKey, type KeyStatus, type Scope } from '../entities/api-key.entity';

/** The fields of a key that leave the process; never the hash. keySchema's body in camelCase, with Dates and the
 * status typed: kept for GraphQL, which reads it as it is. */
export interface KeyView {
  id: number;
  name: string | null;
  prefix: string;
  scopes: Scope[];
  spendLimitCredits: number | null;
  spentCredits: number;
  expiresAt: Date | null;
  expired: boolean;
  revoked: boolean;
  status: KeyStatus;
  created: Date;
  lastUsed: Date | null;
}

/** A key just issued: the plaintext is shown this once and never stored. */
export interface IssuedKeyView extends KeyView {
  key: string;
}

export interface LegacyKeyView {
  token: string;
  prefix: string;
  created: Date;
}

export function keyView(key: ApiKey, now: Date): KeyView {
  const status = keyStatus(key, now);
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    spendLimitCredits: key.spendLimitCredits,
    spentCredits: key.spentCredits,
    expiresAt: key.expiresAt,
    expired: status === 'expired',
    revoked: status === 'revoked',
    status,
    created: key.createdAt,
    lastUsed: key.lastUsedAt,
  };
}

export function renderKey(view: KeyView): Static<typeof keySchema> {
  return {
    id: view.id,
    name: view.name,
    prefix: view.prefix,
    scopes: view.scopes,
    spend_limit_credits: view.spendLimitCredits,
    spent_credits: view.spentCredits,
    expires_at: view.expiresAt ? view.expiresAt.toISOString() : null,
    expired: view.expired,
    revoked: view.revoked,
    status: view.status,
    created: view.created.toISOString(),
    last_used: view.lastUsed ? view.lastUsed.toISOString() : null,
  };
}

export function renderIssuedKey(view: IssuedKeyView): Static<typeof issuedKeySchema> {
  return { ...renderKey(view), key: view.key };
}

export function renderLegacyKey(view: LegacyKeyView): Static<typeof legacyKeySchema> {
  return { token: view.token, prefix: view.prefix, created: view.created.toISOString() };
}
