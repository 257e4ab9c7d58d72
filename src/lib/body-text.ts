import { appUnstorableText, malformedBody } from './app-api-errors';
import { findUnstorableText, isUnstorable } from './text';

/** Strict UTF-8: invalid bytes are an error, not U+FFFD. */
function decodeStrictly(raw: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw malformedBody('The request body is not valid UTF-8.');
  }
}

/** A request body as text: strict UTF-8, storable (Interface B's 400s). */
export function bodyText(raw: Uint8Array): string {
  const text = decodeStrictly(raw);
  if (isUnstorable(text)) throw appUnstorableText('body');
  return text;
}

/** A JSON object from a body's bytes: strict UTF-8, an object at the top, every string storable (Interface B's
 * 400s; a JSON escape such as \u0000 is found in the parsed strings, naming its field). */
export function parseJsonObject(raw: Uint8Array): Record<string, unknown> {
  const text = decodeStrictly(raw);
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
