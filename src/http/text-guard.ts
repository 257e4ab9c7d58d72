import type { Request } from 'express';
import { badRequest, type DomainError } from '../lib/errors';
import { findUnstorableText, unstorableTextMessage } from '../lib/text';

/** Path parameters, query string and parsed body of a request, in that order: the first field holding text that
 * cannot be stored (NUL, a lone surrogate), or null. */
export function unstorableField(req: Request, body: unknown): string | null {
  return findUnstorableText(req.params) ?? findUnstorableText(req.query) ?? findUnstorableText(body, 'body');
}

/** Interface A's 400 for such a field. */
export const studioUnstorableText = (field: string): DomainError => {
  const message = unstorableTextMessage(field);
  return badRequest(message, { details: { [field]: [message] } });
};
