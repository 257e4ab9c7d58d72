import type { DataSource } from 'typeorm';
import { prepared } from '../db/prepared';
import { apiKeyOf, namedKeysOf } from '../db/queries/auth.sql';
import { revokeLegacyKey } from '../db/queries/keys.sql';
import { lockUserForKeys } from '../db/queries/users.sql';
import { query } from '../db/sql';
import { ApiKey, keyStatus, SCOPES } from '../entities/api-key.entity';
import { badRequest, conflict, notFound } from '../lib/errors';
import { randomToken, sha256Hex } from '../lib/crypto';
import type { CreateKeyInput } from '../parsers/keys.parser';
import { keyView, type IssuedKeyView, type KeyView, type LegacyKeyView } from '../presenters/key.presenter';
import type { Caller } from './auth.service';
import type { Clock } from './clock';
import { transactionRetried, type Tx } from '../db/transaction';
import { announceCredentialChange } from './credential-events';
import type { KeyCache } from './key-cache';

export const MAX_ACTIVE_KEYS = 25;
const KEY_RANDOM_LENGTH = 48;
const STORED_PREFIX_LENGTH = 12;
const DAY_MS = 24 * 3600 * 1000;

export class KeysService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly keyPrefix: string,
    private readonly keyCache: KeyCache,
  ) {}

  /** Newest first, revoked and expired included; the legacy key is not listed. From the key cache when it holds
   * the list (at most a second old, dropped on any change), else one prepared statement. Status is computed now. */
  async list(userId: number): Promise<KeyView[]> {
    let keys = this.keyCache.keyList(userId);
    if (!keys) {
      const mark = this.keyCache.mark();
      const read = (await prepared(this.db, namedKeysOf(userId))).map(apiKeyOf);
      this.keyCache.keepKeyList(userId, read, mark);
      keys = read;
    }
    const now = this.clock.now();
    return keys.map((key) => keyView(key, now));
  }

  async create(userId: number, policy: CreateKeyInput): Promise<IssuedKeyView> {
    const { key, plaintext } = await transactionRetried(this.db, async (manager) => {
      await this.lockUser(manager, userId);
      await this.assertNameAndSlotFree(manager, userId, policy.name);
      const now = this.clock.now();
      // The contract's legacy key works until its user replaces it with a named key.
      const replaced = await query(manager, revokeLegacyKey(userId, now));
      if (replaced.length) await announceCredentialChange(manager, userId);
      return this.issue(manager, userId, {
        name: policy.name,
        scopes: policy.scopes,
        spendLimitCredits: policy.spendLimitCredits,
        expiresAt: policy.expiresInDays ? new Date(now.getTime() + policy.expiresInDays * DAY_MS) : null,
        isLegacy: false,
      });
    });
    this.keyCache.userChanged(userId);
    return this.issued(key, plaintext);
  }

  /** Revokes an active key and issues a new one under the same name and policy, with a restarted spent count.
   * The expiry keeps its absolute instant: rotation is not a way to extend a key's life. */
  async rotate(userId: number, keyId: number): Promise<IssuedKeyView> {
    const { key, plaintext } = await transactionRetried(this.db, async (manager) => {
      await this.lockUser(manager, userId);
      const old = await this.ownedKey(manager, userId, keyId);
      const status = keyStatus(old, this.clock.now());
      if (status !== 'active') {
        throw conflict('key_not_active', `Only an active key can be rotated; this key is ${status}.`, { status });
      }
      await manager.update(ApiKey, { id: old.id }, { revokedAt: this.clock.now() });
      await announceCredentialChange(manager, userId);
      return this.issue(manager, userId, {
        name: old.name,
        scopes: old.scopes,
        spendLimitCredits: old.spendLimitCredits,
        expiresAt: old.expiresAt,
        isLegacy: false,
      });
    });
    this.keyCache.userChanged(userId);
    return this.issued(key, plaintext);
  }

  /** Revokes an active or expired key (from a session or any active key of the same user, its own included). */
  async revoke(caller: Caller, keyId: number): Promise<KeyView> {
    const key = await transactionRetried(this.db, async (manager) => {
      const key = await this.ownedKey(manager, caller.user.id, keyId);
      if (!key.revokedAt) {
        key.revokedAt = this.clock.now();
        await manager.update(ApiKey, { id: key.id }, { revokedAt: key.revokedAt });
        await announceCredentialChange(manager, key.userId);
      }
      return key;
    });
    this.keyCache.userChanged(caller.user.id);
    return keyView(key, this.clock.now());
  }

  /** The legacy single key: every scope, no limit, no expiry; generating it again replaces the previous one. */
  async generateLegacy(userId: number): Promise<LegacyKeyView> {
    const { key, plaintext } = await transactionRetried(this.db, async (manager) => {
      await this.lockUser(manager, userId);
      const replaced = await query(manager, revokeLegacyKey(userId, this.clock.now()));
      if (replaced.length) await announceCredentialChange(manager, userId);
      return this.issue(manager, userId, { name: null, scopes: [...SCOPES], spendLimitCredits: null, expiresAt: null, isLegacy: true });
    });
    this.keyCache.userChanged(userId);
    return { token: plaintext, prefix: key.prefix, created: key.createdAt };
  }

  private issued(key: ApiKey, plaintext: string): IssuedKeyView {
    return { ...keyView(key, this.clock.now()), key: plaintext };
  }

  private async issue(
    manager: Tx,
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
      heldCredits: 0,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: this.clock.now(),
    });
    return { key: await manager.save(key), plaintext };
  }

  /** Serialises key changes per user, so the 25-key limit and name uniqueness hold under concurrency. */
  private async lockUser(manager: Tx, userId: number): Promise<void> {
    await query(manager, lockUserForKeys(userId));
  }

  private async assertNameAndSlotFree(manager: Tx, userId: number, name: string): Promise<void> {
    const now = this.clock.now();
    const active = (await manager.find(ApiKey, { where: { userId, isLegacy: false } })).filter((k) => keyStatus(k, now) === 'active');
    if (active.some((k) => k.name === name)) {
      throw badRequest('An active key with this name already exists.', { details: { name: ['Already in use by an active key.'] } });
    }
    if (active.length >= MAX_ACTIVE_KEYS) {
      throw badRequest(`A user can hold at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.`, {
        details: { non_field_errors: [`Limit of ${MAX_ACTIVE_KEYS} active keys reached.`] },
      });
    }
  }

  private async ownedKey(manager: Tx, userId: number, keyId: number): Promise<ApiKey> {
    if (!Number.isSafeInteger(keyId) || keyId <= 0) throw notFound('API key');
    const key = await manager.findOne(ApiKey, { where: { id: keyId, userId, isLegacy: false }, lock: { mode: 'for_no_key_update' } });
    if (!key) throw notFound('API key');
    return key;
  }
}
