import type { Request, Response } from 'express';
import { AppError, AppGeneralError } from '../lib/app-api-errors';
import { RetryLaterError } from '../lib/cpu-errors';
import { DomainError, normaliseError, type RequestFault } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { chargeHeaders } from '../money';

/** Interface A's body: `{error, error_type, ...fields}`; unknown errors are logged and masked. */
export function sendStudioError(error: unknown, req: Request, res: Response, logger: Logger): void {
  const normalised = normaliseError(error);
  const known = normalised.kind === 'domain' ? normalised.error : normalised.kind === 'request' ? studioFault(normalised.fault) : null;
  if (!known) {
    logger.error({ err: error, reqId: req.id }, 'unhandled error');
    res.status(500).json({ error: 'Internal server error.', error_type: 'server_error' });
    return;
  }
  if (known.status >= 500) logger.error({ err: known, cause: known.cause, reqId: req.id }, known.message);
  if (known.status === 429 && typeof known.fields.retry_after_seconds === 'number')
    res.setHeader('Retry-After', String(known.fields.retry_after_seconds));
  const { estimated_cost_credits: estimated, balance_credits: balance } = known.fields;
  if (known.code === 'insufficient_funds' && typeof estimated === 'number' && typeof balance === 'number') res.set(chargeHeaders(estimated, balance));
  res.status(known.status).json({ error: known.message, error_type: known.code, ...known.fields });
}

/** Interface A's wording of a refused request body or URL; null for a fault it does not name (masked as a 500). */
function studioFault(fault: RequestFault): DomainError | null {
  if (fault.reason === 'too_large') return new DomainError(413, 'payload_too_large', 'Request body too large.');
  if (fault.reason === 'encoding') return new DomainError(415, 'unsupported_media_type', `${fault.message}: send UTF-8 JSON.`);
  if (fault.reason === 'url') return new DomainError(400, 'invalid_request', 'Malformed URL: a path segment is not valid percent-encoded UTF-8.');
  return fault.status === 400 ? new DomainError(400, 'invalid_request', 'Malformed request body: send valid JSON.') : null;
}

/** Interface B's bodies (per endpoint or general); anything unknown is logged and masked as a 500. A refused body
 * (413, malformed) closes the connection, so an endless upload is not read any further. */
export function sendAppApiError(error: unknown, req: Request, res: Response, logger: Logger): void {
  const known = appApiError(error, req, logger);
  if (res.headersSent || res.destroyed) {
    req.destroy();
    return;
  }
  if (!req.complete) res.setHeader('Connection', 'close');
  if (known instanceof RetryLaterError) res.setHeader('Retry-After', String(known.retryAfterSeconds));
  res.status(known.status).json(known.body());
}

function appApiError(error: unknown, req: Request, logger: Logger): AppError | AppGeneralError {
  if (error instanceof AppError || error instanceof AppGeneralError) return error;
  const normalised = normaliseError(error);
  if (normalised.kind === 'domain' && normalised.error.code === 'database_unavailable') {
    logger.warn({ err: error, reqId: req.id }, 'database unavailable');
    return new AppGeneralError(503, 'SERVICE_UNAVAILABLE', normalised.error.message);
  }
  if (normalised.kind === 'domain' && normalised.error.code === 'storage_unavailable') {
    logger.warn({ err: error, reqId: req.id }, 'storage unavailable');
    return new AppGeneralError(503, 'STORAGE_UNAVAILABLE', normalised.error.message, { storage: ['unavailable; try again shortly'] });
  }
  logger.error({ err: error, reqId: req.id }, 'unhandled application API error');
  return new AppGeneralError(500, 'SERVER_ERROR', 'Internal server error.');
}
