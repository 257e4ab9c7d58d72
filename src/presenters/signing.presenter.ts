import { ed25519PublicKey } from '../parsers/signing.parser';
import type { Verification } from '../xml/signature';
import type { Static } from '../lib/json-schema';
import type { jwkSchema } from './signing.schema';

/** Signing keys and signatures as they leave the process: camelCase views, rendered once to the wire shape. */

export interface SigningKeyView {
  kid: string;
  /** The raw 32-byte Ed25519 public key, base64url (the JWK `x`). */
  x: string;
  createdAt: Date;
  /** null for the current key. */
  retiredAt: Date | null;
}

export interface SignatureView {
  algorithm: string;
  issuer: string;
  timestamp: string;
  schemaCtId: string;
  evCount: number;
  keyId: string;
}

export interface SignedInstanceView {
  signedXml: string;
  signature: SignatureView;
}

/** An OKP/Ed25519 JWK (RFC 8037) with when the key was made and retired. */
export function renderJwk(key: SigningKeyView): Static<typeof jwkSchema> {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: key.x,
    kid: key.kid,
    use: 'sig',
    alg: 'EdDSA',
    created_at: key.createdAt.toISOString(),
    retired_at: key.retiredAt?.toISOString() ?? null,
  };
}

/** SubjectPublicKeyInfo PEM, what `openssl pkeyutl -verify -pubin` reads. */
export const renderPem = (key: SigningKeyView) => ed25519PublicKey(key.x).export({ type: 'spki', format: 'pem' }) as string;

export function renderSignature(signature: SignatureView) {
  return {
    algorithm: signature.algorithm,
    issuer: signature.issuer,
    timestamp: signature.timestamp,
    schema_ct_id: signature.schemaCtId,
    ev_count: signature.evCount,
    key_id: signature.keyId,
  };
}

/** What a verifier prints: the key and, for a valid signature, the properties it covers. */
export function renderVerification(result: Verification) {
  if (!result.valid) return { valid: false, key_id: result.keyId, reason: result.reason };
  const { issuer, timestamp, schemaCtId, evCount } = result.properties;
  return { valid: true, key_id: result.keyId, signed: { issuer, timestamp, schema_ct_id: schemaCtId, ev_count: evCount } };
}

export function verificationLine(result: Verification): string {
  if (!result.valid) return `invalid: ${result.reason}`;
  const { issuer, timestamp, schemaCtId, evCount } = result.properties;
  return `valid: signed by ${issuer} at ${timestamp} with key ${result.keyId} (model ${schemaCtId}, ${evCount} exceptional values)`;
}
