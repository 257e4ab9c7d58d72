import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { appUnstorableText, fileTooLarge, malformedBody } from '../lib/app-api-errors';
import { isUnstorable } from '../lib/text';
import { declaredLength } from './body';
import type { FileStore } from '../storage/file-store';
import { discardAll, receiveStream, type IncomingFile } from '../storage/incoming-file';

export interface MultipartBody {
  fields: Map<string, string>;
  files: IncomingFile[];
}

export interface MultipartLimits {
  /** Bytes of one file (MAX_UPLOAD_BYTES). */
  maxFileBytes: number;
  maxFiles: number;
}

/** Room for the multipart envelope and small fields beside the files. */
const ENVELOPE_BYTES = 1024 * 1024;
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Streams a multipart/form-data body: files go straight to the staging directory, with limits on each file, on
 * the number of files and fields and on the whole body (so an endless part is cut off). Any failure removes
 * every staged file; the caller owns the files it gets back.
 */
export async function readMultipart(req: IncomingMessage, store: FileStore, limits: MultipartLimits): Promise<MultipartBody> {
  const maxBody = limits.maxFileBytes + ENVELOPE_BYTES;
  if (declaredLength(req) > maxBody) throw fileTooLarge(limits.maxFileBytes);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      preservePath: true,
      defParamCharset: 'utf8',
      limits: {
        // busboy counts reaching its limit as too large: a file of exactly maxFileBytes is allowed.
        fileSize: limits.maxFileBytes + 1,
        files: limits.maxFiles,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: limits.maxFiles + MAX_FIELDS,
        headerPairs: 20,
      },
    });
  } catch (error) {
    throw malformedBody(`Malformed multipart request: ${(error as Error).message}.`);
  }

  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    const files: IncomingFile[] = [];
    /** Files finish staging in any order; the caller gets them in the order they were sent. */
    const arrival = new Map<IncomingFile, number>();
    const streams = new Set<Readable>();
    const pending: Array<Promise<unknown>> = [];
    let failure: unknown = null;
    let received = 0;

    const fail = (error: unknown) => {
      if (failure) return;
      failure = error;
      req.unpipe(parser);
      req.pause();
      for (const stream of streams) stream.destroy(error as Error);
      void Promise.allSettled(pending)
        .then(() => discardAll(store, files))
        .finally(() => reject(error instanceof Error ? error : new Error(String(error))));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBody) fail(fileTooLarge(limits.maxFileBytes));
    };
    const onClose = () => {
      if (!req.complete) fail(malformedBody('The request body ended before it was complete.'));
    };
    req.on('data', onData);
    req.on('close', onClose);

    parser.on('file', (fieldName, stream, info) => {
      if (failure) {
        stream.resume();
        return;
      }
      // Errors reach the upload through receiveStream; busboy may emit another after the pipeline settled.
      stream.on('error', () => undefined);
      streams.add(stream);
      const position = pending.length;
      const staged = receiveStream(store, stream, { fieldName, filename: info.filename ?? '' }, limits.maxFileBytes).then(
        (file) => {
          streams.delete(stream);
          arrival.set(file, position);
          files.push(file);
        },
        (error: unknown) => {
          streams.delete(stream);
          fail(error);
        },
      );
      pending.push(staged);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated)
        fail(malformedBody(`The form field "${name.slice(0, 50)}" is longer than ${MAX_FIELD_BYTES} bytes.`));
      else if (isUnstorable(name) || isUnstorable(value)) fail(appUnstorableText(isUnstorable(name) ? 'form field' : name));
      else fields.set(name, value);
    });
    parser.on('filesLimit', () => fail(malformedBody(`Too many files: at most ${limits.maxFiles} per request.`)));
    parser.on('fieldsLimit', () => fail(malformedBody(`Too many form fields: at most ${MAX_FIELDS}.`)));
    parser.on('partsLimit', () => fail(malformedBody('Too many parts in the multipart body.')));
    parser.on('error', (error: Error) => fail(malformedBody(`Malformed multipart body: ${error.message}.`)));
    parser.on('close', () => {
      void Promise.all(pending).then(() => {
        req.off('data', onData);
        req.off('close', onClose);
        if (failure) void discardAll(store, files);
        else resolve({ fields, files: files.sort((a, b) => arrival.get(a)! - arrival.get(b)!) });
      }, fail);
    });
    req.pipe(parser);
  });
}
