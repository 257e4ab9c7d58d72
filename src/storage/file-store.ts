import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export type StoreArea = 'zip' | 'dmlib';

/** The contract's stored file record; `path` is relative to the storage directory (`zip/…`, `dmlib/…`). */
export interface StoredFile {
  filename: string;
  path: string;
  size: number;
}

/** Names that may reach the filesystem: one path segment of safe ASCII, no leading dot. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Stored files under STORAGE_DIR. Every write lands in `.incoming/` first and is renamed into place, so a
 * reader sees the old file or the new one, never a partial one. */
export class FileStore {
  private ready: Promise<void> | null = null;

  constructor(readonly root: string) {}

  /** A fresh path in the staging directory (same filesystem as the areas, so rename is atomic). */
  async tempPath(): Promise<string> {
    await this.ensure();
    return path.join(this.root, '.incoming', `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
  }

  /** Moves a staged file into `area` under `filename`, replacing any file of that name. */
  async commit(tempPath: string, area: StoreArea, filename: string): Promise<StoredFile> {
    const target = this.locate(area, filename);
    await this.ensure();
    await rename(tempPath, target);
    const { size } = await stat(target);
    return { filename, path: `${area}/${filename}`, size };
  }

  async readText(area: StoreArea, filename: string): Promise<string | null> {
    if (!SAFE_NAME.test(filename)) return null;
    return readFile(this.locate(area, filename), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
  }

  /** `mtime:size` of a stored file (changes when it is replaced), or null when there is none. */
  async stamp(area: StoreArea, filename: string): Promise<string | null> {
    if (!SAFE_NAME.test(filename)) return null;
    return stat(this.locate(area, filename)).then(
      (info) => (info.isFile() ? `${info.mtimeMs}:${info.size}` : null),
      () => null,
    );
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  private locate(area: StoreArea, filename: string): string {
    if (!SAFE_NAME.test(filename)) throw new Error(`refusing to store an unsafe filename: ${JSON.stringify(filename)}`);
    return path.join(this.root, area, filename);
  }

  private ensure(): Promise<void> {
    this.ready ??= Promise.all(['.incoming', 'zip', 'dmlib'].map((dir) => mkdir(path.join(this.root, dir), { recursive: true }))).then(
      () => undefined,
    );
    return this.ready;
  }
}
