import type { DataSource } from 'typeorm';
import { PgListener } from '../db/pg-listener';
import { prepared } from '../db/prepared';
import { addAppKeyUsage, touchStudioKeys } from '../db/queries/auth.sql';
import type { ApiKey } from '../entities/api-key.entity';
import type { User } from '../entities/user.entity';
import type { Logger } from '../lib/logger';
import { CREDENTIAL_CHANNEL, parseCredentialEvent } from './credential-events';

/** The NOTIFY channel that tells every process an Interface B key was deactivated or rotated (payload: its id). */
export const APP_KEY_CHANNEL = 'app_key_changed';
/** The NOTIFY channel on which a trigger announces any change of what a user's key list shows, from any writer
 * (migration 0019; payload: the user id). */
const KEY_LIST_CHANNEL = 'api_keys_changed';

/** A cached entry is read again from the database after this long, whatever was (not) announced. */
const MAX_AGE_MS = 60_000;
/** Entries per kind; past it the oldest goes. */
const MAX_ENTRIES = 10_000;
/** Usage counters are written at least this often (README: "Key cache and usage counters"). */
const USAGE_FLUSH_MS = 1000;
/** A key list shows last_used, which no NOTIFY announces: it is read again as often as the counters are written. */
const KEY_LIST_MAX_AGE_MS = USAGE_FLUSH_MS;
/** How long a user's list is not cached after this process began changing their spend: past any transaction's
 * commit and its NOTIFY's return. */
const KEY_LIST_SPEND_BYPASS_MS = 5000;

export interface CachedStudioKey {
  user: User;
  key: ApiKey;
}

export interface CachedAppKey {
  keyId: number;
  organization: string;
}

interface Entry<T> {
  value: T;
  at: number;
}

/** The generation of each kind of entry when a lookup began (`KeyCache.mark`). */
export interface CacheMark {
  readonly studio: number;
  readonly app: number;
  readonly list: number;
}

/** Resolved keys of both interfaces by the SHA-256 of the presented key, and their usage counted in memory.
 *
 * An entry is served only while this process LISTENs for credential changes, so a key revoked, rotated or
 * deactivated by any process stops working here as soon as the NOTIFY arrives (the changing process also drops
 * it at once, after its commit). Expiry is checked on every hit by the caller. No decision about money is made from
 * the cache: spend limits are checked against the ledger's rows. Each user's key list (its rows, shown to them) is
 * kept too, for a second at most, and dropped on any change a trigger announces, spend included. A lookup that
 * started before a change of its kind cannot store what it read (`mark()` / generations): a key list's change
 * (a spend, the usage flush's last_used) does not stop a resolved key from being kept, only a credential change
 * does. */
export class KeyCache {
  private readonly studio = new Map<string, Entry<CachedStudioKey>>();
  private readonly app = new Map<string, Entry<CachedAppKey>>();
  private readonly lists = new Map<number, Entry<ApiKey[]>>();
  private readonly spendingUntil = new Map<number, number>();
  private readonly generation = { studio: 0, app: 0, list: 0 };
  private listener: PgListener | null = null;
  private appUsage = new Map<number, { count: number; at: Date }>();
  private studioUsage = new Map<number, Date>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: DataSource,
    private readonly logger: Logger,
  ) {}

  /** Starts listening (entries are served from then on) on the data source's database unless given another. */
  async start(databaseUrl = (this.db.options as { url?: string }).url): Promise<void> {
    if (this.listener || !databaseUrl) return;
    this.listener = new PgListener(databaseUrl, [CREDENTIAL_CHANNEL, APP_KEY_CHANNEL, KEY_LIST_CHANNEL], {
      notify: (payload, channel) => {
        if (channel === APP_KEY_CHANNEL) return this.appKeyChanged(Number(payload));
        if (channel === KEY_LIST_CHANNEL) return this.keyListChanged(Number(payload));
        const event = parseCredentialEvent(payload);
        if (event) this.userChanged(event.userId);
        else this.clear();
      },
      // Whatever was announced while the connection was down is unknown: forget everything.
      restored: () => this.clear(),
      problem: (message, error) => {
        this.clear();
        this.logger.warn({ err: error }, `key cache: ${message}`);
      },
    });
    await this.listener.start({ retryInBackground: true });
  }

  /** Stops serving entries, then writes the counted usage (a clean stop loses no count). */
  async stop(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    this.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    await listener?.stop();
  }

  private get live(): boolean {
    return this.listener?.listening === true;
  }

  /** The current generations, taken before a database lookup and handed back to `keep…`. */
  mark(): CacheMark {
    return { ...this.generation };
  }

  studioKey(hash: string): CachedStudioKey | null {
    return this.live ? fresh(this.studio, hash, MAX_AGE_MS) : null;
  }

  appKey(hash: string): CachedAppKey | null {
    return this.live ? fresh(this.app, hash, MAX_AGE_MS) : null;
  }

  /** A user's key rows as the list query returned them (src/db/queries/auth.sql.ts `namedKeysOf`). */
  keyList(userId: number): readonly ApiKey[] | null {
    return this.live && !this.spending(userId) ? fresh(this.lists, userId, KEY_LIST_MAX_AGE_MS) : null;
  }

  /** This process is about to change what a user's keys have spent: until the commit's NOTIFY has surely come
   * back, their list is read from the database, so a client that was charged and then lists its keys sees the
   * charge. */
  keySpendChanging(userId: number): void {
    this.spendingUntil.set(userId, Date.now() + KEY_LIST_SPEND_BYPASS_MS);
    this.keyListChanged(userId);
  }

  private spending(userId: number): boolean {
    const until = this.spendingUntil.get(userId);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.spendingUntil.delete(userId);
    return false;
  }

  keepStudioKey(hash: string, value: CachedStudioKey, mark: CacheMark): void {
    if (this.live && mark.studio === this.generation.studio) put(this.studio, hash, value);
  }

  keepAppKey(hash: string, value: CachedAppKey, mark: CacheMark): void {
    if (this.live && mark.app === this.generation.app) put(this.app, hash, value);
  }

  keepKeyList(userId: number, keys: ApiKey[], mark: CacheMark): void {
    if (this.live && mark.list === this.generation.list && !this.spending(userId)) put(this.lists, userId, keys);
  }

  /** A user's keys changed (or the user did): their entries go now; other processes learn it by NOTIFY. */
  userChanged(userId: number): void {
    this.keyListChanged(userId);
    this.generation.studio++;
    for (const [hash, entry] of this.studio) if (entry.value.user.id === userId) this.studio.delete(hash);
  }

  /** What a user's key list shows changed (a key's spend, say): their list goes, their resolved keys stay. */
  keyListChanged(userId: number): void {
    this.generation.list++;
    if (!Number.isSafeInteger(userId)) return this.lists.clear();
    this.lists.delete(userId);
  }

  appKeyChanged(keyId: number): void {
    this.generation.app++;
    if (!Number.isSafeInteger(keyId)) return this.app.clear();
    for (const [hash, entry] of this.app) if (entry.value.keyId === keyId) this.app.delete(hash);
  }

  clear(): void {
    this.generation.studio++;
    this.generation.app++;
    this.generation.list++;
    this.studio.clear();
    this.app.clear();
    this.lists.clear();
  }

  /** One authenticated Interface B request: request_count and last_used, written by the next flush. */
  countAppKey(keyId: number, at: Date): void {
    const usage = this.appUsage.get(keyId);
    if (usage) {
      usage.count++;
      if (at > usage.at) usage.at = at;
    } else this.appUsage.set(keyId, { count: 1, at });
    this.schedule();
  }

  /** One authenticated Interface A request: last_used_at, written by the next flush. */
  touchStudioKey(keyId: number, at: Date): void {
    const last = this.studioUsage.get(keyId);
    if (!last || at > last) this.studioUsage.set(keyId, at);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), USAGE_FLUSH_MS);
    this.timer.unref();
  }

  /** Writes the usage counted since the last flush in one statement per kind; counts that could not be
   * written (database unavailable) are kept for the next. Flushes run one at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    const app = this.appUsage;
    const studio = this.studioUsage;
    if (!app.size && !studio.size) return;
    this.appUsage = new Map();
    this.studioUsage = new Map();
    try {
      if (app.size) {
        const ids = [...app.keys()];
        await prepared(
          this.db,
          addAppKeyUsage(
            ids,
            ids.map((id) => app.get(id)!.count),
            ids.map((id) => app.get(id)!.at),
          ),
        );
        app.clear();
      }
      if (studio.size) await prepared(this.db, touchStudioKeys([...studio.keys()], [...studio.values()]));
    } catch (error) {
      for (const [id, usage] of app) {
        const now = this.appUsage.get(id);
        this.appUsage.set(id, now ? { count: now.count + usage.count, at: now.at > usage.at ? now.at : usage.at } : usage);
      }
      for (const [id, at] of studio) this.touchStudioKey(id, at);
      this.logger.warn({ err: error }, 'key usage counters not written; kept for the next flush');
    }
  }
}

function fresh<K, T>(map: Map<K, Entry<T>>, key: K, maxAgeMs: number): T | null {
  const entry = map.get(key);
  if (!entry) return null;
  if (Date.now() - entry.at > maxAgeMs) {
    map.delete(key);
    return null;
  }
  return entry.value;
}

function put<K, T>(map: Map<K, Entry<T>>, key: K, value: T): void {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, { value, at: Date.now() });
}
