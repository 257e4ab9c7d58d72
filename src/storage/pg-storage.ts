import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import {
  bindName,
  chunkRange,
  claimChunks,
  collectBlobs,
  collectPending,
  dropChunks,
  insertChunk,
  listNames,
  nameRef,
  notifyChange,
  storageProbe,
  unbindName,
  upsertBlob,
} from '../db/queries/storage.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import {
  asStream,
  checkName,
  guarded,
  STORAGE_CHANNEL,
  storageUnavailable,
  type PutResult,
  type Storage,
  type StorageArea,
  type StoredEntry,
} from './storage';

/** 1 MiB: a chunk is one bytea row, one round trip, and bounds the memory a transfer holds. */
export const CHUNK_BYTES = 1024 * 1024;
/** Chunks fetched per query while streaming out. */
const READ_AHEAD = 2;

/** `postgres:` — every node sees the same files. Content streams in as chunks under a `pending:` key, then one
 * transaction registers the blob by its sha256 (an existing one is reused and the new chunks dropped), points the
 * name at it and NOTIFYs the change. A name committed is durable; an upload cut off leaves only pending chunks,
 * which `gc` collects. */
export class PgStorage implements Storage {
  readonly kind = 'postgres' as const;

  constructor(private readonly db: DataSource) {}

  locate(area: StorageArea, name: string): string {
    checkName(area, name);
    return `postgres:${area}/${name}`;
  }

  async put(area: StorageArea, name: string, source: Readable | Buffer): Promise<PutResult> {
    checkName(area, name);
    const pending = `pending:${randomUUID()}`;
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    let buffered: Buffer[] = [];
    let bufferedBytes = 0;
    const flush = async (final: boolean) => {
      while (bufferedBytes >= CHUNK_BYTES || (final && bufferedBytes > 0)) {
        // One piece (a whole package handed in as a Buffer) is cut by views: concatenating it again for each chunk
        // copied the rest every time (45 MB of copies and garbage for a 9 MB package).
        const all = buffered.length === 1 ? buffered[0] : Buffer.concat(buffered);
        const chunk = all.subarray(0, CHUNK_BYTES);
        const rest = all.subarray(chunk.length);
        buffered = rest.length ? [rest] : [];
        bufferedBytes = rest.length;
        await query(this.db, insertChunk(pending, seq++, chunk));
      }
    };
    try {
      for await (const piece of asStream(source)) {
        const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string);
        hash.update(bytes);
        size += bytes.length;
        buffered.push(bytes);
        bufferedBytes += bytes.length;
        if (bufferedBytes >= CHUNK_BYTES) await guarded(() => flush(false));
      }
      await guarded(() => flush(true));
      const sha256 = hash.digest('hex');
      await guarded(() =>
        transactionRetried(this.db, async (manager) => {
          const [blob] = await query(manager, upsertBlob(sha256, size, seq));
          await query(manager, blob.inserted ? claimChunks(pending, sha256) : dropChunks(pending));
          await query(manager, bindName(area, name, sha256, size));
          await query(manager, notifyChange(STORAGE_CHANNEL, `${area}/${name}`));
        }),
      );
      return { sha256, size };
    } catch (error) {
      // The source failed or the database did: what was streamed in goes (gc takes it if this fails too).
      await query(this.db, dropChunks(pending)).catch(() => undefined);
      throw error;
    }
  }

  async get(area: StorageArea, name: string): Promise<Readable | null> {
    checkName(area, name);
    const ref = await guarded(() => queryOne(this.db, nameRef(area, name)));
    if (!ref) return null;
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let from = 0; from < ref!.chunk_count; from += READ_AHEAD) {
        let rows: Array<{ bytes: Buffer }>;
        try {
          rows = await query(db, chunkRange(ref!.sha256, from, READ_AHEAD));
        } catch (error) {
          throw storageUnavailable(error);
        }
        if (rows.length !== Math.min(READ_AHEAD, ref!.chunk_count - from)) throw storageUnavailable(new Error(`blob ${ref!.sha256} lost a chunk`));
        for (const row of rows) yield row.bytes;
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async exists(area: StorageArea, name: string): Promise<boolean> {
    checkName(area, name);
    return (await guarded(() => queryOne(this.db, nameRef(area, name)))) !== undefined;
  }

  async delete(area: StorageArea, name: string): Promise<boolean> {
    checkName(area, name);
    return guarded(() =>
      transactionRetried(this.db, async (manager) => {
        const gone = await query(manager, unbindName(area, name));
        if (gone.length) await query(manager, notifyChange(STORAGE_CHANNEL, `${area}/${name}`));
        return gone.length > 0;
      }),
    );
  }

  async list(area: StorageArea): Promise<StoredEntry[]> {
    checkName(area, 'x');
    const rows = await guarded(() => query(this.db, listNames(area)));
    return rows.map((row) => ({ name: row.name, size: Number(row.size), sha256: row.sha256 }));
  }

  async gc(graceMs: number): Promise<number> {
    return guarded(async () => {
      await query(this.db, collectPending(graceMs));
      return (await query(this.db, collectBlobs(graceMs))).length;
    });
  }

  async check(): Promise<void> {
    await query(this.db, storageProbe());
  }
}
