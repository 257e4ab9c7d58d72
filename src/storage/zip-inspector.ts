import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { invalidZip } from '../lib/app-api-errors';

/** Bounds on what an uploaded archive may expand to; passing any is a refusal, not a truncation. */
export const ZIP_LIMITS = {
  maxEntries: 10_000,
  /** Uncompressed bytes over the archive and every archive nested in it (ZIP_MAX_INFLATED_BYTES). */
  maxTotalBytes: 256 * 1024 * 1024,
  /** Time the whole check (every entry inflated once) may take (ZIP_MAX_INFLATE_MS). */
  maxMs: 10_000,
  /** Uncompressed/compressed of one entry, checked for entries above ratioFloorBytes. */
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
  /** Archives inside archives, inspected too, this many levels down. */
  maxNesting: 2,
};

export type ZipLimits = typeof ZIP_LIMITS;

export interface ZipSummary {
  entries: number;
  uncompressedBytes: number;
}

/** Info-ZIP Unicode Path extra field: an extractor may take the entry's name from it instead. */
const UNICODE_PATH_FIELD = 0x7075;

interface Budget {
  entries: number;
  bytes: number;
  /** performance.now() past which the check stops. */
  deadline: number;
  maxMs: number;
}

/** Checks an archive entry by entry: structure, names that stay inside the extraction directory, CRC-32 and
 * declared sizes of every entry's data, and the expansion limits (nested archives included). Throws INVALID_ZIP. */
export async function inspectZip(file: string, limits: ZipLimits = ZIP_LIMITS): Promise<ZipSummary> {
  const budget: Budget = { entries: 0, bytes: 0, deadline: performance.now() + limits.maxMs, maxMs: limits.maxMs };
  const zip = await openZip((cb) => yauzl.open(file, OPTIONS, cb));
  await inspectArchive(zip, '', 0, budget, limits);
  return { entries: budget.entries, uncompressedBytes: budget.bytes };
}

const OPTIONS = { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: false };

function openZip(open: (cb: (err: Error | null, zip: ZipFile) => void) => void): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    open((err, zip) => {
      if (err) return reject(invalidZip(err.message));
      // Errors reach the pending read through nextEntry; this keeps a late one from crashing the process.
      zip.on('error', () => undefined);
      resolve(zip);
    });
  });
}

async function inspectArchive(zip: ZipFile, outer: string, depth: number, budget: Budget, limits: ZipLimits): Promise<void> {
  try {
    if (budget.entries + zip.entryCount > limits.maxEntries) {
      throw invalidZip(`too many entries (${budget.entries + zip.entryCount}; the limit is ${limits.maxEntries})`, { entries: zip.entryCount });
    }
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) return;
      await inspectEntry(zip, entry, outer, depth, budget, limits);
    }
  } finally {
    zip.close();
  }
}

function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.removeListener('entry', onEntry);
      zip.removeListener('end', onEnd);
      zip.removeListener('error', onError);
    };
    const onEntry = (entry: Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(null));
    const onError = (err: Error) => (cleanup(), reject(invalidZip(err.message)));
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

async function inspectEntry(zip: ZipFile, entry: Entry, outer: string, depth: number, budget: Budget, limits: ZipLimits): Promise<void> {
  const name = entryName(entry);
  const shown = outer + name;
  checkEntryName(entry.fileNameRaw, shown);
  for (const field of entry.extraFields) {
    if (field.id === UNICODE_PATH_FIELD && field.data.length > 5) checkEntryName(field.data.subarray(5), shown);
  }
  budget.entries++;
  if (budget.entries > limits.maxEntries) throw invalidZip(`too many entries (the limit is ${limits.maxEntries})`);
  budget.bytes += entry.uncompressedSize;
  if (budget.bytes > limits.maxTotalBytes) {
    throw invalidZip(`expands to more than ${limits.maxTotalBytes} bytes (ZIP_MAX_INFLATED_BYTES)`, { entry: shown });
  }
  if (entry.uncompressedSize > limits.ratioFloorBytes && entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
    throw invalidZip(`entry ${JSON.stringify(shown)} has a compression ratio above ${limits.maxRatio}:1 (zip bomb)`, { entry: shown });
  }
  if (name.endsWith('/')) return;
  if (entry.isEncrypted()) throw invalidZip(`entry ${JSON.stringify(shown)} is encrypted and cannot be checked`, { entry: shown });
  const nested = /\.zip$/i.test(name);
  if (nested && depth >= limits.maxNesting) {
    throw invalidZip(`archives nested more than ${limits.maxNesting} levels deep`, { entry: shown });
  }
  const data = await readChecked(zip, entry, shown, nested, budget);
  if (nested && data) {
    const inner = await openZip((cb) => yauzl.fromBuffer(data, OPTIONS, cb));
    await inspectArchive(inner, `${shown}!/`, depth + 1, budget, limits);
  }
}

/** Reads the entry's data through, checking its CRC-32 (yauzl checks the size); keeps the bytes of a nested archive. */
async function readChecked(zip: ZipFile, entry: Entry, shown: string, keep: boolean, budget: Budget): Promise<Buffer | null> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw invalidZip(`entry ${JSON.stringify(shown)}: ${(error as Error).message}`, { entry: shown });
  }
  let crc = 0;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      crc = crc32(chunk, crc);
      if (keep) chunks.push(chunk);
      if (performance.now() > budget.deadline) throw new InflateBudget(budget.maxMs);
    }
  } catch (error) {
    if (error instanceof InflateBudget) {
      stream.destroy();
      throw invalidZip(`took longer than ${error.maxMs} ms to check (ZIP_MAX_INFLATE_MS)`, { entry: shown });
    }
    throw invalidZip(`entry ${JSON.stringify(shown)}: ${(error as Error).message}`, { entry: shown });
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) throw invalidZip(`CRC-32 mismatch in entry ${JSON.stringify(shown)}`, { entry: shown });
  return keep ? Buffer.concat(chunks) : null;
}

class InflateBudget extends Error {
  constructor(readonly maxMs: number) {
    super(`inflating took longer than ${maxMs} ms`);
  }
}

function entryName(entry: Entry): string {
  return entry.fileNameRaw.toString('utf8');
}

/** A name must stay inside the directory it is extracted to, on any platform. */
function checkEntryName(raw: Buffer, shown: string): void {
  const name = raw.toString('utf8');
  const reason =
    raw.length === 0
      ? 'an empty name'
      : raw.includes(0)
        ? 'a NUL byte in its name'
        : name.includes('\\')
          ? 'a backslash in its name'
          : name.startsWith('/') || /^[A-Za-z]:/.test(name)
            ? 'an absolute path'
            : name.split('/').includes('..')
              ? 'a path that escapes the directory (..)'
              : null;
  if (reason) throw invalidZip(`entry ${JSON.stringify(shown.replace(/\0/g, '\\0'))} has ${reason}`, { entry: shown.replace(/\0/g, '\\0') });
}
