import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { move } from 'piscina';
import { fileTooLarge, malformedBody } from '../lib/app-api-errors';
import { asAppApiError } from '../lib/cpu-errors';
import { bodyText, parseJsonObject } from '../lib/body-text';
import { LOOP_TURN_BYTES, loopTurn } from './loop-turns';
import type { CpuPool } from '../workers/pool';

/** From this size on, a JSON body is decoded and parsed in the CPU pool: on the event loop that costs about 3.5 ms
 * a MB (strict UTF-8 decoding, JSON.parse, the storable-text scan), 70 ms for a body at MAX_UPLOAD_BYTES, while
 * every other request waits. Below it, the pool trip would cost more than the work. */
export const OFF_LOOP_JSON_BYTES = 256 * 1024;

/** A JSON object body read with a size limit and strict UTF-8 (invalid bytes are an error, not U+FFFD); a large
 * one is parsed in the CPU pool (its refusals in Interface B's shape), with `xmlAsBytes` its `xml_content` kept as
 * UTF-8 bytes (body.task.ts `jsonObjectXmlBytes`). */
export async function readJsonObject(req: Request, maxBytes: number, pool: CpuPool, xmlAsBytes = false): Promise<Record<string, unknown>> {
  const raw = await readRawBody(req, maxBytes);
  if (raw.length < OFF_LOOP_JSON_BYTES) {
    // Parsed on the event loop, a large one in its caller's turn (src/http/loop-turns.ts).
    if (raw.length >= LOOP_TURN_BYTES) await loopTurn();
    return parseJsonObject(raw);
  }
  try {
    // Moved, not copied: cloning megabytes into the thread would be event-loop work again.
    const task = xmlAsBytes ? 'jsonObjectXmlBytes' : 'jsonObject';
    return await pool.run<Uint8Array, Record<string, unknown>>('body', task, move(raw) as Uint8Array);
  } catch (error) {
    throw asAppApiError(error);
  }
}

/** A text body (a SPARQL query) with a size limit, strict UTF-8 and storable. */
export async function readTextBody(req: Request, maxBytes: number): Promise<string> {
  return bodyText(await readRawBody(req, maxBytes));
}

/** How a raw body is refused, in the caller's interface: Interface B's bodies by default. */
export interface RawBodyErrors {
  tooLarge: (maxBytes: number) => Error;
  cutOff: (message: string) => Error;
}

const APP_API_BODY_ERRORS: RawBodyErrors = { tooLarge: fileTooLarge, cutOff: malformedBody };

/** A raw body of at most `maxBytes` (refused from its Content-Length when declared larger, else once past it). With a
 * declared length each chunk is copied into the one buffer as it arrives, so the copy is spread over the body's
 * arrival instead of one copy of megabytes (and the page faults of fresh memory) on the event loop at its end. */
export async function readRawBody(req: Request, maxBytes: number, errors: RawBodyErrors = APP_API_BODY_ERRORS): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared > maxBytes) throw errors.tooLarge(maxBytes);
  const whole = declared > 0 ? Buffer.allocUnsafe(declared) : null;
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > (whole ? declared : maxBytes)) {
        cleanup();
        req.pause();
        // Node's parser never passes more than the declared length; a body past it is refused like one past the limit.
        reject(errors.tooLarge(maxBytes));
        return;
      }
      if (whole) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => {
      cleanup();
      if (!whole) resolve(Buffer.concat(chunks, size));
      else if (size === declared) resolve(whole);
      else reject(errors.cutOff('The request body ended before its declared length.'));
    };
    const onError = () => (cleanup(), reject(errors.cutOff('The request body ended before its declared length.')));
    const onClose = () => {
      if (!req.complete) onError();
    };
    const cleanup = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

export function declaredLength(req: IncomingMessage): number {
  const header = req.headers['content-length'];
  return header === undefined ? 0 : Number(header);
}

/** The media type of Content-Type, lower-cased, without parameters. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}
