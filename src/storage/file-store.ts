import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

export type { StoredFile } from './storage';

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

/** This node's staging directory, STORAGE_DIR/.incoming: an upload is received here (it is this request's alone),
 * checked, then put into the storage (`storage.ts`), which every node shares. */
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

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  /** Readiness: the staging directory exists (created if missing) and is writable; throws what the filesystem said. */
  async check(): Promise<void> {
    const target = path.join(this.root, '.incoming');
    await mkdir(target, { recursive: true });
    await access(target, constants.W_OK | constants.X_OK);
  }

  /** Run before every write and never memoised: storage repaired (or replaced) meanwhile works without a restart. */
  private async ensure(): Promise<void> {
    await mkdir(path.join(this.root, '.incoming'), { recursive: true });
  }
}
