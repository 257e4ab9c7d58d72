import { createPublicKey, type KeyObject } from 'node:crypto';
import { badRequest } from '../lib/errors';

export interface SigningKeyQuery {
  kid: string | null;
  format: 'jwk' | 'pem';
}

/** `GET /.well-known/sdc-signing-key[?kid=…][&format=jwk|pem]`: the current key unless a kid is named. */
export function parseSigningKeyQuery(query: Record<string, unknown>): SigningKeyQuery {
  const { kid, format = 'jwk' } = query;
  if (kid !== undefined && (typeof kid !== 'string' || kid === '')) throw badRequest('kid must be one key id.', { kid });
  if (format !== 'jwk' && format !== 'pem') throw badRequest('Unknown format: use "jwk" or "pem".', { format });
  return { kid: kid ?? null, format };
}

/** An Ed25519 public key from its raw 32 bytes (JWK `x`, base64url). */
export function ed25519PublicKey(x: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The OKP/Ed25519 keys of a JWK set (or of one JWK) by kid; other key types are ignored. Throws when none is left. */
export function parseJwkSet(value: unknown): Map<string, KeyObject> {
  const jwks = isRecord(value) && Array.isArray(value.keys) ? value.keys : [value];
  const keys = new Map<string, KeyObject>();
  for (const jwk of jwks) {
    if (!isRecord(jwk) || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.kid !== 'string' || typeof jwk.x !== 'string') continue;
    keys.set(jwk.kid, ed25519PublicKey(jwk.x));
  }
  if (keys.size === 0) throw badRequest('No Ed25519 key (a JWK with kty OKP, crv Ed25519, kid and x) in the key set.');
  return keys;
}
