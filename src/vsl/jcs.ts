import { createHash } from 'node:crypto';

/** RFC 8785 (JCS) through the npm `canonicalize` package (the RFC's co-author's reference implementation), loaded
 * once: it is ESM-only, so this CommonJS build imports it dynamically. Two canonicalisers that disagree make
 * honest Receipts read as tampered, so every hash in this folder goes through this one. */
type Canonicalize = (input: unknown) => string | undefined;

let loading: Promise<Canonicalize> | null = null;
const library = (): Promise<Canonicalize> => (loading ??= import('canonicalize').then((module) => module.default));

/** The canonical JSON text of `value` (NaN, ±Infinity and lone surrogates refused by the library). */
export async function canonicalJson(value: unknown): Promise<string> {
  const text = (await library())(value);
  if (text === undefined) throw new TypeError('This value has no JSON form.');
  return text;
}

export const canonicalBytes = async (value: unknown): Promise<Buffer> => Buffer.from(await canonicalJson(value), 'utf8');

export const sha256Hex = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** SHA-256 of the canonical bytes, as lowercase hex: how every JSON commitment of a Receipt is made. */
export const canonicalHash = async (value: unknown): Promise<string> => sha256Hex(await canonicalBytes(value));

/** Integers past ±(2^53−1) cannot round-trip through a double: an issuer refuses them in what it commits to. */
export function unsafeIntegerPath(value: unknown, at = '$'): string | null {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value) ? at : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeIntegerPath(value[i], `${at}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = unsafeIntegerPath(child, `${at}.${key}`);
      if (found) return found;
    }
  }
  return null;
}
