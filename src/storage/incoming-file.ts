import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTooLarge } from '../lib/app-api-errors';
import type { FileStore } from './file-store';
import { storageUnavailable } from './storage';

/** An uploaded file staged on disk: `filename` is the client's name, untrusted and never used as a path. */
export interface IncomingFile {
  fieldName: string;
  filename: string;
  tempPath: string;
  size: number;
}

/** Streams an upload into the staging directory, refusing it (413) as soon as it passes `maxBytes`. A staging
 * directory that cannot be created or written (permissions, a full disk) is `storage_unavailable` (503). */
export async function receiveStream(
  store: FileStore,
  source: Readable,
  meta: { fieldName: string; filename: string },
  maxBytes: number,
): Promise<IncomingFile> {
  let tempPath: string;
  try {
    tempPath = await store.tempPath();
  } catch (error) {
    source.resume();
    throw storageUnavailable(error);
  }
  let size = 0;
  let tooLarge = false;
  source.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes && !tooLarge) {
      tooLarge = true;
      source.destroy(fileTooLarge(maxBytes));
    }
  });
  source.on('limit', () => {
    tooLarge = true;
    source.destroy(fileTooLarge(maxBytes));
  });
  if (source.destroyed) throw source.errored ?? new Error('the upload ended before it was staged');
  const sink = createWriteStream(tempPath, { flags: 'wx' });
  try {
    await pipeline(source, sink);
  } catch (error) {
    // The sink may still be opening its file: remove it only once it is closed.
    if (!sink.closed) await once(sink, 'close').catch(() => undefined);
    await store.discard(tempPath);
    if (tooLarge || (error as { status?: number }).status === 413) throw fileTooLarge(maxBytes);
    if (sink.errored) throw storageUnavailable(error);
    throw error;
  }
  // busboy marks a file cut at its limit as truncated (its 'limit' event may have fired before we listened).
  if (tooLarge || (source as Readable & { truncated?: boolean }).truncated) {
    await store.discard(tempPath);
    throw fileTooLarge(maxBytes);
  }
  return { ...meta, tempPath, size };
}

export async function readIncoming(file: IncomingFile): Promise<Buffer> {
  return readFile(file.tempPath);
}

export async function discardAll(store: FileStore, files: IncomingFile[]): Promise<void> {
  await Promise.all(files.map((f) => store.discard(f.tempPath)));
}
