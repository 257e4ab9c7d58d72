import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

export type StoreArea = 'zip' | 'dmlib';

/** The contract's stored file record; `path` is relative to the storage directory (`zip/…`, `dmlib/…`). */
export interface StoredFile {
  filename: string;
  path: string;
  size: number;
}

const AREAS = ['.incoming', 'zip', 'dmlib'];

/** Staged files carry their host and process, so a start can tell a crashed run's leftovers from a live upload. */
const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
const STAGING_PREFIX = `${HOST}~${process.pid}~`;
const STALE_STAGING_MS = 24 * 3600 * 1000;

async function orphaned(file: string, name: string): Promise<boolean> {
  const [host, pid] = name.split('~');
  if (host === HOST && pid !== undefined && (Number(pid) === process.pid || !processAlive(Number(pid)))) return true;
  const info = await stat(file).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs > STALE_STAGING_MS;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Names that may reach the filesystem: one path segment of safe ASCII, no leading dot. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Stored files under STORAGE_DIR. Every write lands in `.incoming/` first and is renamed into place, so a
 * reader sees the old file or the new one, never a partial one. */
export class FileStore {
  constructor(readonly root: string) {}

  /** A fresh path in the staging directory (same filesystem as the areas, so rename is atomic). */
  async tempPath(): Promise<string> {
    await this.ensure();
    return path.join(this.root, '.incoming', `${STAGING_PREFIX}${Date.now()}-${randomBytes(8).toString('hex')}.part`);
  }

  /** Removes staged files no live request can own: at start, this host's files whose process is gone (or was a
   * previous run under this pid) and any file older than a day; at exit (`ownOnly`), this process's own. */
  async cleanStaging(ownOnly: boolean): Promise<number> {
    const dir = path.join(this.root, '.incoming');
    const names = await readdir(dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      if (!(ownOnly ? name.startsWith(STAGING_PREFIX) : await orphaned(path.join(dir, name), name))) continue;
      await rm(path.join(dir, name), { force: true });
      removed++;
    }
    return removed;
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

  /** Readiness: every area exists (created if missing) and is writable; throws what the filesystem said. */
  async check(): Promise<void> {
    for (const dir of AREAS) {
      const target = path.join(this.root, dir);
      await mkdir(target, { recursive: true });
      await access(target, constants.W_OK | constants.X_OK);
    }
  }

  /** Run before every write and never memoised: storage repaired (or replaced) meanwhile works without a restart. */
  private async ensure(): Promise<void> {
    await Promise.all(AREAS.map((dir) => mkdir(path.join(this.root, dir), { recursive: true })));
  }
}
