import type { DataSource } from 'typeorm';
import { notifyChange } from '../db/queries/storage.sql';
import { query } from '../db/sql';
import { currentCaller } from '../lib/caller-context';
import type { CallerDbShares } from '../lib/caller-db-shares';
import type { Logger } from '../lib/logger';
import { parseStorageUrl } from '../lib/storage-url';
import { FileStorage } from './file-storage';
import { FileStore } from './file-store';
import { PgStorage } from './pg-storage';
import { STORAGE_CHANNEL, type Storage } from './storage';
import type { StorageEvents } from './storage-events';

/** The storage STORAGE_URL names; every change reaches this node's caches at once and the other nodes' through
 * NOTIFY (the postgres backend notifies inside its transaction, the file backend after the rename). The postgres
 * backend's writes count against their caller's database share (`dbShares`). */
export function createStorage(args: {
  url: string;
  storageDir: string;
  db: DataSource;
  events: StorageEvents;
  logger: Logger;
  dbShares: CallerDbShares;
}): Storage {
  const parsed = parseStorageUrl(args.url);
  if (parsed.kind === 'postgres') return withLocalEvents(withCallerShares(new PgStorage(args.db), args.dbShares), args.events);
  const storage = new FileStorage(new FileStore(parsed.dir ?? args.storageDir), async (area, name) => {
    await query(args.db, notifyChange(STORAGE_CHANNEL, `${area}/${name}`)).catch((error: unknown) =>
      args.logger.warn({ err: error, area, name }, 'storage change not announced to other nodes'),
    );
  });
  return withLocalEvents(storage, args.events);
}

/** Each write (a put streams its chunks one at a time on one connection; a delete is one transaction) holds one of
 * its caller's database slots, so one caller's large writes (VaaS packages, uploads) never take the pool from
 * another's reads. Writes outside a request (jobs) are not counted. */
function withCallerShares(storage: Storage, shares: CallerDbShares): Storage {
  const put = storage.put.bind(storage);
  const remove = storage.delete.bind(storage);
  storage.put = (area, name, source) => shares.run(currentCaller(), () => put(area, name, source));
  storage.delete = (area, name) => shares.run(currentCaller(), () => remove(area, name));
  return storage;
}

/** This node's caches hear of its own changes without waiting for the notification to come back. */
function withLocalEvents(storage: Storage, events: StorageEvents): Storage {
  const put = storage.put.bind(storage);
  const remove = storage.delete.bind(storage);
  storage.put = async (area, name, source) => {
    const result = await put(area, name, source);
    events.emit({ area, name });
    return result;
  };
  storage.delete = async (area, name) => {
    const removed = await remove(area, name);
    if (removed) events.emit({ area, name });
    return removed;
  };
  return storage;
}
