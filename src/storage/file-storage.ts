import { createHash } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStore } from './file-store';
import { asStream, checkName, guarded, STORAGE_AREAS, type PutResult, type Storage, type StorageArea, type StoredEntry } from './storage';

/** `file:` — today's layout, STORAGE_DIR/<area>/<name>, one node (or a shared volume). Writes are staged in
 * `.incoming/` and renamed into place. `notify` announces a change to the other nodes. */
export class FileStorage implements Storage {
  readonly kind = 'file' as const;

  constructor(
    private readonly staging: FileStore,
    private readonly notify: (area: StorageArea, name: string) => Promise<void>,
  ) {}

  private get root(): string {
    return this.staging.root;
  }

  locate(area: StorageArea, name: string): string {
    checkName(area, name);
    return path.join(this.root, area, name);
  }

  async put(area: StorageArea, name: string, source: Readable | Buffer): Promise<PutResult> {
    const target = this.locate(area, name);
    const result = await guarded(async () => {
      const temp = await this.staging.tempPath();
      const hash = createHash('sha256');
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(asStream(source), count, createWriteStream(temp, { flags: 'wx' }));
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temp, target);
      } finally {
        await rm(temp, { force: true });
      }
      return { sha256: hash.digest('hex'), size };
    });
    await this.notify(area, name);
    return result;
  }

  async get(area: StorageArea, name: string): Promise<Readable | null> {
    const file = this.locate(area, name);
    return guarded(async () => {
      const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      return info?.isFile() ? createReadStream(file) : null;
    });
  }

  async exists(area: StorageArea, name: string): Promise<boolean> {
    const file = this.locate(area, name);
    return stat(file).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  async delete(area: StorageArea, name: string): Promise<boolean> {
    const file = this.locate(area, name);
    const existed = await this.exists(area, name);
    await guarded(() => rm(file, { force: true }));
    if (existed) await this.notify(area, name);
    return existed;
  }

  async list(area: StorageArea): Promise<StoredEntry[]> {
    checkName(area, 'x');
    const dir = path.join(this.root, area);
    const names = await readdir(dir).catch(() => [] as string[]);
    const entries: StoredEntry[] = [];
    for (const name of names.sort()) {
      const info = await stat(path.join(dir, name)).catch(() => null);
      if (info?.isFile()) entries.push({ name, size: info.size, sha256: null });
    }
    return entries;
  }

  /** A file is its own content: nothing to collect. */
  async gc(): Promise<number> {
    return 0;
  }

  /** Every area exists (created if missing) and is writable; throws what the file system said. */
  async check(): Promise<void> {
    for (const dir of ['.incoming', ...STORAGE_AREAS]) {
      const target = path.join(this.root, dir);
      await mkdir(target, { recursive: true });
      await access(target, constants.W_OK | constants.X_OK);
    }
  }
}
