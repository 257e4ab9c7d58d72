import type { DataSource, EntityManager } from 'typeorm';
import { one, rows } from '../db/sql';
import { AppApiKey } from '../entities/app-api-key.entity';
import { constantTimeEqual, randomToken, sha256Hex } from '../lib/crypto';
import type { Clock } from '../services/clock';
import { AppError, appUnauthenticated } from './app-errors';

export const APP_KEY_PREFIX = 'sdcapp_';
const KEY_RANDOM_LENGTH = 40;
const STORED_PREFIX_LENGTH = 12;
/** Longer headers cannot be a key: refused before hashing. */
const MAX_KEY_LENGTH = 256;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The authenticated key of a request (what a handler may know about its caller). */
export interface AppCaller {
  keyId: number;
  organization: string;
}

export interface IssuedAppKey {
  key: AppApiKey;
  plaintext: string;
}

function invalid(field: string, message: string): AppError {
  return new AppError(400, 'VALIDATION_ERROR', message, { field });
}

/** Organisation keys of Interface B: shown once, stored as SHA-256, counted atomically on every use. */
export class AppKeysService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async create(input: { organization: unknown; contactEmail: unknown }): Promise<IssuedAppKey> {
    const organization = typeof input.organization === 'string' ? input.organization.trim() : '';
    const contactEmail = typeof input.contactEmail === 'string' ? input.contactEmail.trim() : '';
    if (!organization || organization.length > 200) throw invalid('organization', 'organization is required (at most 200 characters).');
    if (!EMAIL.test(contactEmail) || contactEmail.length > 254) throw invalid('contact_email', 'contact_email must be an e-mail address.');
    return this.issue(organization, contactEmail, null);
  }

  async list(): Promise<AppApiKey[]> {
    return this.db.manager.find(AppApiKey, { order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async get(id: number): Promise<AppApiKey> {
    const key = Number.isSafeInteger(id) ? await this.db.manager.findOneBy(AppApiKey, { id }) : null;
    if (!key) throw new AppError(404, 'NOT_FOUND', `No API key ${id}.`, { id });
    return key;
  }

  /** Idempotent: deactivating an inactive key changes nothing. */
  async deactivate(id: number): Promise<AppApiKey> {
    await this.get(id);
    await rows(this.db, 'UPDATE app_api_keys SET is_active = false, deactivated_at = $2 WHERE id = $1 AND is_active', [id, this.clock.now()]);
    return this.get(id);
  }

  /** Disables the key and issues a new one for the same organisation, in one transaction. */
  async rotate(id: number): Promise<IssuedAppKey> {
    return this.db.transaction(async (manager) => {
      const old = await one<{ organization: string; contact_email: string; is_active: boolean }>(
        manager,
        'SELECT organization, contact_email, is_active FROM app_api_keys WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (!old) throw new AppError(404, 'NOT_FOUND', `No API key ${id}.`, { id });
      if (!old.is_active) throw new AppError(409, 'KEY_NOT_ACTIVE', 'Only an active key can be rotated.', { id });
      await rows(manager, 'UPDATE app_api_keys SET is_active = false, deactivated_at = $2 WHERE id = $1', [id, this.clock.now()]);
      return this.issue(old.organization, old.contact_email, id, manager);
    });
  }

  /** Resolves the X-API-Key header and counts the use in the same statement (no read-modify-write). Missing,
   * unknown and deactivated keys get one indistinguishable 401. */
  async authenticate(header: string | string[] | undefined): Promise<AppCaller> {
    const presented = Array.isArray(header) ? undefined : header?.trim();
    if (!presented || presented.length > MAX_KEY_LENGTH) throw appUnauthenticated();
    const hash = sha256Hex(presented);
    const row = await one<{ id: string; key_hash: string; organization: string }>(
      this.db,
      // Usage counters commit asynchronously (no WAL flush on the hot path): a crash may lose the last counts,
      // never a key's state.
      `UPDATE app_api_keys SET request_count = request_count + 1, last_used = $2
         FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
        WHERE key_hash = $1 AND is_active RETURNING id, key_hash, organization`,
      [hash, this.clock.now()],
    );
    if (!row || !constantTimeEqual(row.key_hash, hash)) throw appUnauthenticated();
    return { keyId: Number(row.id), organization: row.organization };
  }

  private async issue(organization: string, contactEmail: string, replacesId: number | null, on: DataSource | EntityManager = this.db): Promise<IssuedAppKey> {
    const plaintext = `${APP_KEY_PREFIX}${randomToken(KEY_RANDOM_LENGTH)}`;
    const row = await one<{ id: string }>(
      on,
      `INSERT INTO app_api_keys (organization, contact_email, key_hash, prefix, created_at, replaces_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [organization, contactEmail, sha256Hex(plaintext), plaintext.slice(0, STORED_PREFIX_LENGTH), this.clock.now(), replacesId],
    );
    const manager = 'manager' in on ? on.manager : on;
    const key = await manager.findOneByOrFail(AppApiKey, { id: Number(row!.id) });
    return { key, plaintext };
  }
}
