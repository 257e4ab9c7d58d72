import { isUtf8 } from 'node:buffer';
import { DomainError } from '../lib/errors';

/** express.json's `verify`: a body that is not valid UTF-8 is refused (body-parser would quietly turn the bad
 * bytes into U+FFFD, which would then be stored). */
export function strictUtf8(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(body)) throw new DomainError(400, 'invalid_request', 'Request body is not valid UTF-8.');
}
