import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { fileTooLarge, malformedBody } from '../lib/app-api-errors';
import { findUnstorableText, isUnstorable } from '../lib/text';
import { appUnstorableText } from './text-guard';

/** A JSON object body read with a size limit and strict UTF-8 (invalid bytes are an error, not U+FFFD). */
export async function readJsonObject(req: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const raw = await readRawBody(req, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw malformedBody('The request body is not valid UTF-8.');
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw malformedBody('Malformed JSON body.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw malformedBody('The JSON body must be an object.');
  const unstorable = findUnstorableText(parsed, 'body');
  if (unstorable) throw appUnstorableText(unstorable);
  return parsed as Record<string, unknown>;
}

export async function readTextBody(req: Request, maxBytes: number): Promise<string> {
  const raw = await readRawBody(req, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw malformedBody('The request body is not valid UTF-8.');
  }
  if (isUnstorable(text)) throw appUnstorableText('body');
  return text;
}

/** How a raw body is refused, in the caller's interface: Interface B's bodies by default. */
export interface RawBodyErrors {
  tooLarge: (maxBytes: number) => Error;
  cutOff: (message: string) => Error;
}

const APP_API_BODY_ERRORS: RawBodyErrors = { tooLarge: fileTooLarge, cutOff: malformedBody };

/** A raw body of at most `maxBytes` (refused from its Content-Length when declared larger, else once past it). */
export async function readRawBody(req: Request, maxBytes: number, errors: RawBodyErrors = APP_API_BODY_ERRORS): Promise<Buffer> {
  if (declaredLength(req) > maxBytes) throw errors.tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        reject(errors.tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = () => (cleanup(), resolve(Buffer.concat(chunks)));
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
