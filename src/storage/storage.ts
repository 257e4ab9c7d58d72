import { Readable } from 'node:stream';
import { DomainError } from '../lib/errors';

/** The stored areas: uploads (zip, dmlib) and what the studio generates (packages, apps). */
export const STORAGE_AREAS = ['zip', 'dmlib', 'packages', 'apps'] as const;
export type StorageArea = (typeof STORAGE_AREAS)[number];
/** Kept for the upload code's vocabulary: the areas Interface B writes. */
export type StoreArea = 'zip' | 'dmlib';

/** The contract's stored file record; `path` is relative to the storage (`zip/…`, `dmlib/…`). */
export interface StoredFile {
  filename: string;
  path: string;
  size: number;
}

export interface PutResult {
  sha256: string;
  size: number;
}

export interface StoredEntry {
  name: string;
  size: number;
  sha256: string | null;
}

/** Names that may be stored: one path segment of safe ASCII, no leading dot. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Durable named files, shared by every node of a deployment when the backend is `postgres:`. A name is replaced
 * atomically: a reader sees the old content or the new one, never a part. Each change is announced on the
 * storage channel (NOTIFY), so every node drops what it cached from the old content.
 */
export interface Storage {
  /** `file` (STORAGE_DIR) or `postgres` (blobs in the database). */
  readonly kind: 'file' | 'postgres';
  /** Streams `source` in under `area/name`, replacing any content of that name. */
  put(area: StorageArea, name: string, source: Readable | Buffer): Promise<PutResult>;
  /** The content as a stream, or null when there is none. */
  get(area: StorageArea, name: string): Promise<Readable | null>;
  exists(area: StorageArea, name: string): Promise<boolean>;
  /** Removes the name; the content goes once nothing references it (postgres: `gc`). */
  delete(area: StorageArea, name: string): Promise<boolean>;
  list(area: StorageArea): Promise<StoredEntry[]>;
  /** Removes contents no name references, untouched for `graceMs`; returns how many. */
  gc(graceMs: number): Promise<number>;
  /** Readiness: throws what the backend said. */
  check(): Promise<void>;
  /** Where a name lives, for logs and the studio's stored-file records (a path for `file:`). */
  locate(area: StorageArea, name: string): string;
}

/** A storage failure: 503 `storage_unavailable` (studio), 503 STORAGE_UNAVAILABLE (Interface B general format). */
export const storageUnavailable = (cause: unknown) =>
  new DomainError(503, 'storage_unavailable', 'The file storage is unavailable right now; try again shortly.', {}, { cause });

export function checkName(area: StorageArea, name: string): void {
  if (!(STORAGE_AREAS as readonly string[]).includes(area)) throw new Error(`unknown storage area ${JSON.stringify(area)}`);
  if (!SAFE_NAME.test(name)) throw new Error(`refusing to store an unsafe filename: ${JSON.stringify(name)}`);
}

/** Runs a backend call; anything that is not a refusal of the caller's input becomes `storage_unavailable`. */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw storageUnavailable(error);
  }
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The whole content, or null. */
export async function readBytes(storage: Storage, area: StorageArea, name: string): Promise<Buffer | null> {
  if (!SAFE_NAME.test(name)) return null;
  const stream = await storage.get(area, name);
  return stream ? guarded(() => readAll(stream)) : null;
}

export async function readText(storage: Storage, area: StorageArea, name: string): Promise<string | null> {
  return (await readBytes(storage, area, name))?.toString('utf8') ?? null;
}

export const asStream = (source: Readable | Buffer): Readable => (Buffer.isBuffer(source) ? Readable.from([source]) : source);

/** `packages/dm-x.zip` (a data_models path column) as an area and a name; null for anything else. */
export function splitStoredPath(relative: string): { area: StorageArea; name: string } | null {
  const [area, name, ...rest] = relative.split('/');
  if (rest.length || !name || !(STORAGE_AREAS as readonly string[]).includes(area) || !SAFE_NAME.test(name)) return null;
  return { area: area as StorageArea, name };
}

/** The storage channel's payload: `area/name` of a changed file. */
export const STORAGE_CHANNEL = 'sdc_storage';
