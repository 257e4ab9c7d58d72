import type { DataSource } from 'typeorm';
import { prepared } from '../db/prepared';
import { activeAppKeyByHash } from '../db/queries/auth.sql';
import { deactivateAppKey, insertAppKey, lockAppKey } from '../db/queries/app-keys.sql';
import { notify } from '../db/queries/notify.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried, type Tx } from '../db/transaction';
import { AppApiKey } from '../entities/app-api-key.entity';
import { constantTimeEqual, randomToken, sha256Hex } from '../lib/crypto';
import type { Clock } from './clock';
import { AppError, appUnauthenticated } from '../lib/app-api-errors';
import type { NewAppKey } from '../parsers/app.parser';
import { presentAppKey, type AppKeyView, type IssuedAppKeyView } from '../presenters/app-key.presenter';
import { APP_KEY_CHANNEL, type KeyCache } from './key-cache';

const APP_KEY_PREFIX = 'sdcapp_';

/** Interface B's one requirement, in REST routes and GraphQL fields: an active organisation key in X-API-Key. */
export const APP_KEY = 'app_key';
const KEY_RANDOM_LENGTH = 40;
const STORED_PREFIX_LENGTH = 12;
/** Longer headers cannot be a key: refused before hashing. */
const MAX_KEY_LENGTH = 256;

/** The authenticated key of a request (what a handler may know about its caller). */
export interface AppCaller {
  keyId: number;
  organization: string;
}

/** Organisation keys of Interface B: shown once, stored as SHA-256, resolved from the key cache, every use
 * counted (in memory, written within a second: src/services/key-cache.ts). */
export class AppKeysService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly keyCache: KeyCache,
  ) {}

  async create(input: NewAppKey): Promise<IssuedAppKeyView> {
    return transactionRetried(this.db, (tx) => this.issue(tx, input.organization, input.contactEmail, null));
  }

  async list(): Promise<AppKeyView[]> {
    return (await this.db.manager.find(AppApiKey, { order: { createdAt: 'DESC', id: 'DESC' } })).map(presentAppKey);
  }

  async get(id: number): Promise<AppKeyView> {
    const key = Number.isSafeInteger(id) ? await this.db.manager.findOneBy(AppApiKey, { id }) : null;
    if (!key) throw new AppError(404, 'NOT_FOUND', `No API key ${id}.`, { id });
    return presentAppKey(key);
  }

  /** Idempotent: deactivating an inactive key changes nothing. Every process stops accepting the key: this one
   * at once, the others when the NOTIFY sent at commit arrives. */
  async deactivate(id: number): Promise<AppKeyView> {
    await this.get(id);
    await transactionRetried(this.db, async (manager) => {
      await query(manager, deactivateAppKey(id, this.clock.now()));
      await announceAppKeyChange(manager, id);
    });
    this.keyCache.appKeyChanged(id);
    return this.get(id);
  }

  /** Disables the key and issues a new one for the same organisation, in one transaction. */
  async rotate(id: number): Promise<IssuedAppKeyView> {
    const issued = await transactionRetried(this.db, async (manager) => {
      const old = await queryOne(manager, lockAppKey(id));
      if (!old) throw new AppError(404, 'NOT_FOUND', `No API key ${id}.`, { id });
      if (!old.is_active) throw new AppError(409, 'KEY_NOT_ACTIVE', 'Only an active key can be rotated.', { id });
      await query(manager, deactivateAppKey(id, this.clock.now()));
      await announceAppKeyChange(manager, id);
      return this.issue(manager, old.organization, old.contact_email, id);
    });
    this.keyCache.appKeyChanged(id);
    return issued;
  }

  /** Resolves the X-API-Key header (from the key cache, else one prepared statement) and counts the use.
   * Missing, unknown and deactivated keys get one indistinguishable 401. */
  async authenticate(header: string | string[] | undefined): Promise<AppCaller> {
    const presented = Array.isArray(header) ? undefined : header?.trim();
    if (!presented || presented.length > MAX_KEY_LENGTH) throw appUnauthenticated();
    const hash = sha256Hex(presented);
    let caller = this.keyCache.appKey(hash);
    if (!caller) {
      const mark = this.keyCache.mark();
      const [row] = await prepared(this.db, activeAppKeyByHash(hash));
      if (!row || !constantTimeEqual(row.key_hash, hash)) throw appUnauthenticated();
      caller = { keyId: Number(row.id), organization: row.organization };
      this.keyCache.keepAppKey(hash, caller, mark);
    }
    this.keyCache.countAppKey(caller.keyId, this.clock.now());
    return { keyId: caller.keyId, organization: caller.organization };
  }

  private async issue(tx: Tx, organization: string, contactEmail: string, replacesId: number | null): Promise<IssuedAppKeyView> {
    const plaintext = `${APP_KEY_PREFIX}${randomToken(KEY_RANDOM_LENGTH)}`;
    const [row] = await query(
      tx,
      insertAppKey({
        organization,
        contactEmail,
        keyHash: sha256Hex(plaintext),
        prefix: plaintext.slice(0, STORED_PREFIX_LENGTH),
        createdAt: this.clock.now(),
        replacesId,
      }),
    );
    const key = await tx.findOneByOrFail(AppApiKey, { id: Number(row.id) });
    return { key: presentAppKey(key), plaintext };
  }
}

/** Tells every process the key changed; inside a transaction the notification leaves at commit. */
async function announceAppKeyChange(tx: Tx, id: number): Promise<void> {
  await query(tx, notify(APP_KEY_CHANNEL, String(id)));
}
