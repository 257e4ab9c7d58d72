import type { DataSource } from 'typeorm';
import { graphTriples, organizationUsage, recordUpload, storedUpload, totalTriples } from '../db/queries/instances.sql';
import { query, queryOne } from '../db/sql';
import { AppError } from '../lib/app-api-errors';

/** Interface B's storage caps (README, limits): the triples every organisation's graphs may hold together and
 * each one's, which bound what the embedded SPARQL store loads into memory, and the bytes each organisation
 * stores (instances and uploaded files). */
export interface AppStorageLimits {
  /** APP_MAX_TRIPLES */
  maxTriples: number;
  /** APP_MAX_TRIPLES_PER_ORGANIZATION */
  maxTriplesPerOrganization: number;
  /** APP_STORAGE_QUOTA_BYTES */
  storageQuotaBytes: number;
}

/** 507 in Interface B's per-endpoint shape: what was asked, what is held, the cap and the setting that sets it. */
const quotaExceeded = (what: string, setting: string, limit: number, used: number, asked: number) =>
  new AppError(
    507,
    'STORAGE_QUOTA_EXCEEDED',
    `Storing this would take ${what} past ${limit} (${setting}): ${used} held, ${asked} more asked. Nothing was stored.`,
    { setting, limit, used, requested: asked },
  );

/** Usage read from Postgres is reused for this long; this process's own writes are counted at once. */
const FRESH_MS = 1000;

interface Usage {
  at: number;
  triples: number;
  bytes: number;
  /** What was admitted on the previous figure (carried over): triples and bytes over the figure read. */
  carried: { triples: number; bytes: number };
  read: { triples: number; bytes: number };
}

/**
 * A figure read again. A read does not see the writes still under way when it was sent, so what was admitted on
 * the figure it replaces is carried over once (counted twice where already committed, until the next read): only a
 * write slower than a whole FRESH_MS is ever missed.
 */
function refreshed(previous: Usage | null | undefined, triples: number, bytes: number): Usage {
  const carried = previous
    ? {
        triples: previous.triples - previous.read.triples - previous.carried.triples,
        bytes: previous.bytes - previous.read.bytes - previous.carried.bytes,
      }
    : { triples: 0, bytes: 0 };
  return { at: Date.now(), triples: triples + carried.triples, bytes: bytes + carried.bytes, carried, read: { triples, bytes } };
}

/**
 * Interface B's storage caps, checked before a write: an instance (its bytes and its graph's triples) or a
 * schema graph. The sums are running totals kept by triggers (migration 0031), one row read, reused for a second; what this process
 * admits is added at once (and taken back if the write fails), so concurrent writes through one process cannot
 * pass a cap together, and writes through several pass it by at most a second of theirs.
 */
export class AppStorageQuota {
  private total: Usage | null = null;
  private readonly organizations = new Map<string, Usage>();
  /** The usage reads under way: a stale entry is read again once, not once per request waiting on it. */
  private readonly reading = new Map<string, Promise<Usage>>();
  private readingTotal: Promise<Usage> | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly limits: AppStorageLimits,
  ) {}

  /** Admits `add` for `organization` (a graph replacing `replacesGraph` asks only for the triples it adds, a
   * file replacing its own `replacesUpload` only for the bytes it adds) or throws 507; the returned function
   * takes it back when the write does not happen. */
  async admit(
    organization: string,
    add: { triples: number; bytes: number; replacesGraph?: string; replacesUpload?: { area: string; filename: string } },
  ): Promise<() => void> {
    const replaced = add.replacesGraph ? ((await queryOne(this.db, graphTriples(add.replacesGraph)))?.triple_count ?? 0) : 0;
    const triples = Math.max(0, add.triples - replaced);
    const previous = add.replacesUpload ? await queryOne(this.db, storedUpload(add.replacesUpload.area, add.replacesUpload.filename)) : undefined;
    const bytes = Math.max(0, add.bytes - (previous?.organization === organization ? Number(previous.size) : 0));
    const [own, all] = await Promise.all([this.usageOf(organization), this.totalUsage()]);
    const { maxTriples, maxTriplesPerOrganization, storageQuotaBytes } = this.limits;
    if (bytes > 0 && own.bytes + bytes > storageQuotaBytes)
      throw quotaExceeded(`your organisation's stored instances and files (bytes)`, 'APP_STORAGE_QUOTA_BYTES', storageQuotaBytes, own.bytes, bytes);
    if (triples > 0 && own.triples + triples > maxTriplesPerOrganization)
      throw quotaExceeded(`your organisation's stored triples`, 'APP_MAX_TRIPLES_PER_ORGANIZATION', maxTriplesPerOrganization, own.triples, triples);
    if (triples > 0 && all.triples + triples > maxTriples)
      throw quotaExceeded('the triples stored by every organisation', 'APP_MAX_TRIPLES', maxTriples, all.triples, triples);
    own.triples += triples;
    own.bytes += bytes;
    all.triples += triples;
    return () => {
      own.triples -= triples;
      own.bytes -= bytes;
      all.triples -= triples;
    };
  }

  /** Records an uploaded file as the organisation's (after it is stored): its size counts toward its quota. */
  async recordUpload(organization: string, area: string, filename: string, size: number): Promise<void> {
    await query(this.db, recordUpload(area, filename, organization, size));
  }

  /** An organisation's usage: read by one query at a time however many requests ask at once (every waiter shares
   * the row it returns, so what each admits adds up on one object). Once known, a stale figure is answered at
   * once while it is read again, so no request waits on the read. */
  private usageOf(organization: string): Promise<Usage> {
    const cached = this.organizations.get(organization);
    if (cached && Date.now() - cached.at < FRESH_MS) return Promise.resolve(cached);
    let pending = this.reading.get(organization);
    if (!pending) {
      pending = this.readUsageOf(organization).finally(() => this.reading.delete(organization));
      this.reading.set(organization, pending);
    }
    if (!cached) return pending;
    pending.catch(() => undefined);
    return Promise.resolve(cached);
  }

  private async readUsageOf(organization: string): Promise<Usage> {
    const row = (await queryOne(this.db, organizationUsage(organization)))!;
    const usage = refreshed(this.organizations.get(organization), Number(row.triples), Number(row.bytes));
    this.organizations.delete(organization);
    this.organizations.set(organization, usage);
    // The map is in refresh order: forget the organisations not seen for longest past a thousand.
    for (const old of this.organizations.keys()) {
      if (this.organizations.size <= 1000) break;
      this.organizations.delete(old);
    }
    return usage;
  }

  /** Every organisation's triples, read as `usageOf` reads one's. */
  private totalUsage(): Promise<Usage> {
    const cached = this.total;
    if (cached && Date.now() - cached.at < FRESH_MS) return Promise.resolve(cached);
    this.readingTotal ??= query(this.db, totalTriples())
      .then(([row]) => (this.total = refreshed(this.total, Number(row.triples), 0)))
      .finally(() => (this.readingTotal = null));
    if (!cached) return this.readingTotal;
    this.readingTotal.catch(() => undefined);
    return Promise.resolve(cached);
  }
}
