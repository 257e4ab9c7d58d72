import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { newId } from '../lib/ids';
import { deletePackage, insertPackage, livePackage, livePackageBytes, lockUserPackages, takeExpiredPackages } from '../db/queries/vaas.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import { DomainError } from '../lib/errors';
import type { Links } from '../lib/links';
import { readBytes, type Storage } from '../storage/storage';
import type { Clock } from './clock';

export interface StoredVaasPackage {
  id: string;
  url: string;
  expiresAt: Date;
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
/** 507: the package would take the user's live packages past VAAS_PACKAGE_QUOTA_BYTES; nothing is charged. */
const packageQuotaExceeded = (quota: number, held: number, size: number) =>
  new DomainError(
    507,
    'storage_quota_exceeded',
    `This package (${size} bytes) would take your stored VaaS packages past their quota of ${quota} bytes (VAAS_PACKAGE_QUOTA_BYTES); ` +
      'packages expire after VAAS_PACKAGE_TTL_SECONDS, or validate without package=true.',
    { quota_bytes: quota, used_bytes: held, package_bytes: size },
  );

/** Packages offered to their caller at /api/v1/vaas/packages/{id}/ until they expire (VAAS_PACKAGE_TTL_SECONDS). */
const packageNotFound = () => new DomainError(404, 'not_found', 'Package not found (packages expire; validate again with package=true).');

export class VaasPackages {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly links: Links,
    private readonly storage: Storage,
    private readonly ttlSeconds: number,
    /** Bytes of live packages one user may hold (VAAS_PACKAGE_QUOTA_BYTES). */
    private readonly quotaBytes = 256 * 1024 * 1024,
  ) {}

  url(id: string): string {
    return this.links.vaasPackage(id);
  }

  async save(userId: number, dmCtId: string, zip: Buffer): Promise<StoredVaasPackage> {
    const id = newId();
    const fileName = `dm-${dmCtId}.pkg.zip`;
    // In the packages area beside the model packages; the name is the row's storage_path.
    const storagePath = `vaas-${id}.zip`;
    const expiresAt = new Date(this.clock.now().getTime() + this.ttlSeconds * 1000);
    await this.storage.put('packages', storagePath, zip);
    // The user's live packages and this one within the quota, checked and recorded under a per-user lock so
    // concurrent packages cannot pass it together; a refused package's file is removed and its request released.
    const refused = await transactionRetried(this.db, async (manager) => {
      await query(manager, lockUserPackages(userId));
      const held = Number((await queryOne(manager, livePackageBytes(userId, this.clock.now())))?.bytes ?? 0);
      if (held + zip.length > this.quotaBytes) return held;
      await query(
        manager,
        insertPackage({
          id,
          user_id: userId,
          dm_ct_id: dmCtId,
          file_name: fileName,
          storage_path: storagePath,
          size: zip.length,
          sha256: sha256(zip),
          expires_at: expiresAt,
        }),
      );
      return null;
    });
    if (refused !== null) {
      await this.storage.delete('packages', storagePath);
      throw packageQuotaExceeded(this.quotaBytes, refused, zip.length);
    }
    return { id, url: this.url(id), expiresAt };
  }

  /** The caller's own package; 404 for another's, an unknown or an expired one. */
  async get(id: string, userId: number): Promise<{ fileName: string; content: Buffer }> {
    const row = await queryOne(this.db, livePackage(id, userId, this.clock.now()));
    if (!row) throw packageNotFound();
    const content = await readBytes(this.storage, 'packages', row.storage_path);
    if (!content) throw packageNotFound();
    return { fileName: row.file_name, content };
  }

  /** Removes a package that will not be offered (its request failed after storing it). */
  async discard(id: string): Promise<void> {
    const removed = await query(this.db, deletePackage(id));
    await Promise.all(removed.map((row) => this.storage.delete('packages', row.storage_path)));
  }

  /** Removes up to 100 expired packages (rows and files); run every minute (jobs/maintenance.ts). */
  async sweep(): Promise<number> {
    const expired = await query(this.db, takeExpiredPackages(this.clock.now(), 100));
    await Promise.all(expired.map((row) => this.storage.delete('packages', row.storage_path)));
    return expired.length;
  }
}
