import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import type { DataSource } from 'typeorm';
import { deletePackage, insertPackage, livePackage, takeExpiredPackages } from '../db/queries/vaas.sql';
import { query, queryOne } from '../db/sql';
import { DomainError } from '../lib/errors';
import type { Links } from '../lib/links';
import { zipFiles, type PackageFile } from '../packages/model-package';
import type { Clock } from './clock';

/** The one place VaaS packages touch storage: files under STORAGE_DIR/vaas-packages/, written beside and renamed
 * (as the model packages are), so a reader never sees half a ZIP. Swap these three for a storage interface. */
const packageStore = (storageDir: string) => {
  const locate = (relative: string) => path.join(storageDir, relative);
  return {
    async write(relative: string, content: Buffer): Promise<void> {
      const file = locate(relative);
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, content);
      await rename(partial, file);
    },
    read: (relative: string) => readFile(locate(relative)),
    remove: (relative: string) => rm(locate(relative), { force: true }),
  };
};

export interface VaasPackageFiles {
  dmCtId: string;
  title: string;
  files: PackageFile[];
}

export interface StoredVaasPackage {
  id: string;
  url: string;
  expiresAt: Date;
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const bytes = (file: PackageFile) => (typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content);

/** A ZIP of the instance's files and `manifest.json` (ct_id, title, each file's name, size and sha256). */
export async function packageZip(pkg: VaasPackageFiles): Promise<Buffer> {
  const manifest = {
    ct_id: pkg.dmCtId,
    title: pkg.title,
    files: pkg.files.map((f) => ({ name: f.name, size: bytes(f).length, sha256: sha256(bytes(f)) })),
  };
  return zipFiles([...pkg.files, { name: 'manifest.json', content: `${JSON.stringify(manifest, null, 2)}\n` }]);
}

/** Packages offered to their caller at /api/v1/vaas/packages/{id}/ until they expire (VAAS_PACKAGE_TTL_SECONDS). */
export class VaasPackages {
  private readonly store: ReturnType<typeof packageStore>;

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly links: Links,
    storageDir: string,
    private readonly ttlSeconds: number,
  ) {
    this.store = packageStore(storageDir);
  }

  url(id: string): string {
    return `${this.links.base}/api/v1/vaas/packages/${id}/`;
  }

  async save(userId: number, dmCtId: string, zip: Buffer): Promise<StoredVaasPackage> {
    await this.sweep();
    const id = createId();
    const fileName = `dm-${dmCtId}.pkg.zip`;
    const storagePath = path.join('vaas-packages', `${id}.zip`);
    const expiresAt = new Date(this.clock.now().getTime() + this.ttlSeconds * 1000);
    await this.store.write(storagePath, zip);
    await query(
      this.db,
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
    return { id, url: this.url(id), expiresAt };
  }

  /** The caller's own package; 404 for another's, an unknown or an expired one. */
  async get(id: string, userId: number): Promise<{ fileName: string; content: Buffer }> {
    const row = await queryOne(this.db, livePackage(id, userId, this.clock.now()));
    if (!row) throw new DomainError(404, 'not_found', 'Package not found (packages expire; validate again with package=true).');
    return { fileName: row.file_name, content: await this.store.read(row.storage_path) };
  }

  /** Removes a package that will not be offered (its request failed after storing it). */
  async discard(id: string): Promise<void> {
    const removed = await query(this.db, deletePackage(id));
    await Promise.all(removed.map((row) => this.store.remove(row.storage_path)));
  }

  /** Removes up to 100 expired packages (rows and files); run before each new package. */
  async sweep(): Promise<number> {
    const expired = await query(this.db, takeExpiredPackages(this.clock.now(), 100));
    await Promise.all(expired.map((row) => this.store.remove(row.storage_path)));
    return expired.length;
  }
}
