import { rows } from '../db/sql';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiKey, SCOPES, type Scope } from '../entities/api-key.entity';
import { badRequest, conflict, DomainError, notFound } from '../lib/errors';
import { randomToken, sha256Hex } from '../lib/crypto';
import type { Caller } from './auth.service';
import type { Clock } from './clock';

export const MAX_ACTIVE_KEYS = 25;
export const KEY_RANDOM_LENGTH = 48;
const STORED_PREFIX_LENGTH = 12;
const MAX_NAME_LENGTH = 100;
const DAY_MS = 24 * 3600 * 1000;

export interface KeyPolicyInput {
  name?: unknown;
  scopes?: unknown;
  spend_limit_credits?: unknown;
  expires_in_days?: unknown;
}

interface KeyPolicy {
  name: string;
  scopes: Scope[];
  spendLimitCredits: number | null;
  expiresInDays: number | null;
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

function invalid(field: string, message: string): DomainError {
  return badRequest(message, { details: { [field]: [message] } });
}

/** Validates a create request; defaults: every scope, no limit, no expiry. `read` is always present. */
export function parseKeyPolicy(input: KeyPolicyInput): KeyPolicy {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw invalid('name', 'name is required.');
  if (name.length > MAX_NAME_LENGTH) throw invalid('name', `name must have at most ${MAX_NAME_LENGTH} characters.`);
  let scopes: Scope[] = [...SCOPES];
  if (input.scopes !== undefined && input.scopes !== null) {
    if (!Array.isArray(input.scopes) || input.scopes.some((s) => !(SCOPES as readonly unknown[]).includes(s))) {
      throw invalid('scopes', 'scopes must be an array of read, build and spend.');
    }
    const asked = new Set<Scope>(['read', ...(input.scopes as Scope[])]);
    scopes = SCOPES.filter((s) => asked.has(s));
  }
  let spendLimitCredits: number | null = null;
  if (input.spend_limit_credits !== undefined && input.spend_limit_credits !== null) {
    const limit = input.spend_limit_credits;
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
      throw invalid('spend_limit_credits', 'spend_limit_credits must be an integer of at least 0, or null.');
    }
    spendLimitCredits = limit;
  }
  let expiresInDays: number | null = null;
  if (input.expires_in_days !== undefined && input.expires_in_days !== null) {
    const days = input.expires_in_days;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 3660) {
      throw invalid('expires_in_days', 'expires_in_days must be an integer from 1 to 3660.');
    }
    expiresInDays = days;
  }
  return { name, scopes, spendLimitCredits, expiresInDays };
}

export function keyStatus(key: ApiKey, now: Date): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}

export class KeysService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly keyPrefix: string,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  /** Newest first, revoked and expired included; the legacy key is not listed. */
  async list(userId: number): Promise<ApiKey[]> {
    return this.db.manager.find(ApiKey, { where: { userId, isLegacy: false }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async create(userId: number, input: KeyPolicyInput): Promise<{ key: ApiKey; plaintext: string }> {
    const policy = parseKeyPolicy(input);
    return this.db.transaction(async (manager) => {
      await this.lockUser(manager, userId);
      await this.assertNameAndSlotFree(manager, userId, policy.name);
      const now = this.clock.now();
      // The contract's legacy key works until its user replaces it with a named key.
      await rows(manager, 'UPDATE api_keys SET revoked_at = $2 WHERE user_id = $1 AND is_legacy AND revoked_at IS NULL', [userId, now]);
      return this.issue(manager, userId, {
        name: policy.name,
        scopes: policy.scopes,
        spendLimitCredits: policy.spendLimitCredits,
        expiresAt: policy.expiresInDays ? new Date(now.getTime() + policy.expiresInDays * DAY_MS) : null,
        isLegacy: false,
      });
    });
  }

  /** Revokes an active key and issues a new one under the same name and policy, with a restarted spent count.
   * The expiry keeps its absolute instant: rotation is not a way to extend a key's life. */
  async rotate(userId: number, keyId: number): Promise<{ key: ApiKey; plaintext: string }> {
    return this.db.transaction(async (manager) => {
      await this.lockUser(manager, userId);
      const old = await this.ownedKey(manager, userId, keyId);
      const status = keyStatus(old, this.clock.now());
      if (status !== 'active') {
        throw conflict('key_not_active', `Only an active key can be rotated; this key is ${status}.`, { status });
      }
      await manager.update(ApiKey, { id: old.id }, { revokedAt: this.clock.now() });
      return this.issue(manager, userId, {
        name: old.name,
        scopes: old.scopes,
        spendLimitCredits: old.spendLimitCredits,
        expiresAt: old.expiresAt,
        isLegacy: false,
      });
    });
  }

  /** Revokes an active or expired key (from a session or any active key of the same user, its own included). */
  async revoke(caller: Caller, keyId: number): Promise<ApiKey> {
    return this.db.transaction(async (manager) => {
      const key = await this.ownedKey(manager, caller.user.id, keyId);
      if (!key.revokedAt) {
        key.revokedAt = this.clock.now();
        await manager.update(ApiKey, { id: key.id }, { revokedAt: key.revokedAt });
      }
      return key;
    });
  }

  /** The legacy single key: every scope, no limit, no expiry; generating it again replaces the previous one. */
  async generateLegacy(userId: number): Promise<{ key: ApiKey; plaintext: string }> {
    return this.db.transaction(async (manager) => {
      await this.lockUser(manager, userId);
      await rows(manager, 'UPDATE api_keys SET revoked_at = $2 WHERE user_id = $1 AND is_legacy AND revoked_at IS NULL', [
        userId,
        this.clock.now(),
      ]);
      return this.issue(manager, userId, { name: null, scopes: [...SCOPES], spendLimitCredits: null, expiresAt: null, isLegacy: true });
    });
  }

  private async issue(
    manager: EntityManager,
    userId: number,
    fields: Pick<ApiKey, 'name' | 'scopes' | 'spendLimitCredits' | 'expiresAt' | 'isLegacy'>,
  ): Promise<{ key: ApiKey; plaintext: string }> {
    const plaintext = `${this.keyPrefix}${randomToken(KEY_RANDOM_LENGTH)}`;
    const key = manager.create(ApiKey, {
      ...fields,
      userId,
      keyHash: sha256Hex(plaintext),
      prefix: plaintext.slice(0, STORED_PREFIX_LENGTH),
      spentCredits: 0,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: this.clock.now(),
    });
    return { key: await manager.save(key), plaintext };
  }

  /** Serialises key changes per user, so the 25-key limit and name uniqueness hold under concurrency. */
  private async lockUser(manager: EntityManager, userId: number): Promise<void> {
    await rows(manager, 'SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  }

  private async assertNameAndSlotFree(manager: EntityManager, userId: number, name: string): Promise<void> {
    const now = this.clock.now();
    const active = (await manager.find(ApiKey, { where: { userId, isLegacy: false } })).filter(
      (k) => keyStatus(k, now) === 'active',
    );
    if (active.some((k) => k.name === name)) {
      throw badRequest('An active key with this name already exists.', { details: { name: ['Already in use by an active key.'] } });
    }
    if (active.length >= MAX_ACTIVE_KEYS) {
      throw badRequest(`A user can hold at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.`, {
        details: { non_field_errors: [`Limit of ${MAX_ACTIVE_KEYS} active keys reached.`] },
      });
    }
  }

  private async ownedKey(manager: EntityManager, userId: number, keyId: number): Promise<ApiKey> {
    if (!Number.isSafeInteger(keyId) || keyId <= 0) throw notFound('API key');
    const key = await manager.findOne(ApiKey, { where: { id: keyId, userId, isLegacy: false }, lock: { mode: 'pessimistic_write' } });
    if (!key) throw notFound('API key');
    return key;
  }
}
