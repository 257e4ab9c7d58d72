import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { AppError, AppGeneralError, fileTooLarge, invalidParameter, malformedBody } from './app-errors';

/** Sends an Interface B error in its contract shape; anything unknown is logged and masked as a 500. A refused
 * body (413, malformed) closes the connection, so an endless upload is not read any further. */
export function sendAppError(error: unknown, req: Request, res: Response, logger: Logger): void {
  let known: AppError | AppGeneralError;
  if (error instanceof AppError || error instanceof AppGeneralError) known = error;
  else if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, reqId: req.id }, 'database unavailable');
    known = new AppGeneralError(503, 'SERVICE_UNAVAILABLE', 'The database is unavailable right now; try again shortly.');
  } else {
    logger.error({ err: error, reqId: req.id }, 'unhandled application API error');
    known = new AppGeneralError(500, 'SERVER_ERROR', 'Internal server error.');
  }
  if (res.headersSent || res.destroyed) {
    req.destroy();
    return;
  }
  if (!req.complete) res.setHeader('Connection', 'close');
  res.status(known.status).json(known.body());
}

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
  return parsed as Record<string, unknown>;
}

export async function readTextBody(req: Request, maxBytes: number): Promise<string> {
  const raw = await readRawBody(req, maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw malformedBody('The request body is not valid UTF-8.');
  }
}

async function readRawBody(req: Request, maxBytes: number): Promise<Buffer> {
  if (declaredLength(req) > maxBytes) throw fileTooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        reject(fileTooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = () => (cleanup(), resolve(Buffer.concat(chunks)));
    const onError = () => (cleanup(), reject(malformedBody('The request body ended before its declared length.')));
    const onClose = () => {
      if (!req.complete) onError();
    };
    const cleanup = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

export function declaredLength(req: Request): number {
  const header = req.headers['content-length'];
  return header === undefined ? 0 : Number(header);
}

/** The media type of Content-Type, lower-cased, without parameters. */
export function mediaType(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A boolean parameter from a form field, a JSON field or the query string; `fallback` when absent. */
export function booleanParameter(name: string, values: unknown[], fallback: boolean): boolean {
  const value = values.find((v) => v !== undefined && v !== null && v !== '');
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const normalized = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
    if (['false', '0', 'no', 'off'].includes(normalized)) return false;
  }
  throw invalidParameter(name, `${name} must be true or false.`);
}
