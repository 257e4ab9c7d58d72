import { createPublicKey, type KeyObject } from 'node:crypto';

/** Key documents as sdcreceipt reads them (vsl.md §3): `{issuer, keys: [{key_id, public_key_pem, alg, status,
 * …}]}`, or a DID document's `verificationMethod[{id, publicKeyPem}]`. An entry without both a string key id and
 * a PEM is skipped (the studio's Ed25519 JWKs are); a PEM of any key type other than P-256 or ML-DSA-65 makes the
 * whole document unusable, as the client's loader does. */

type KeyAlg = 'ES256' | 'ML-DSA-65';

export interface PublicKeyEntry {
  keyId: string;
  alg: KeyAlg;
  /** `revoked` fails every signature naming the key; other statuses are informative. */
  status: string | null;
  /** The P-256 key (ES256). */
  ec: KeyObject | null;
  /** The raw 1952-byte ML-DSA-65 public key (Node 20 cannot load it as a KeyObject). */
  mldsa: Uint8Array | null;
}

export class KeyDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyDocumentError';
  }
}

/** SubjectPublicKeyInfo of an ML-DSA-65 key: SEQUENCE { SEQUENCE { OID 2.16.840.1.101.3.4.3.18 }, BIT STRING }. */
const MLDSA65_SPKI_PREFIX = Buffer.from('308207b2300b0609608648016503040312038207a100', 'hex');
const MLDSA65_PUBLIC_BYTES = 1952;

/** The key a PEM holds, if it is one a Receipt may name; a message saying why not otherwise. */
function publicKeyOf(pem: string): { ec: KeyObject } | { mldsa: Uint8Array } | string {
  let key: KeyObject | null = null;
  try {
    key = createPublicKey(pem);
  } catch {
    const der = pemBody(pem);
    if (
      der &&
      der.length === MLDSA65_SPKI_PREFIX.length + MLDSA65_PUBLIC_BYTES &&
      der.subarray(0, MLDSA65_SPKI_PREFIX.length).equals(MLDSA65_SPKI_PREFIX)
    ) {
      return { mldsa: new Uint8Array(der.subarray(MLDSA65_SPKI_PREFIX.length)) };
    }
    return 'the PEM is not a SubjectPublicKeyInfo public key';
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return `the key is ${key.asymmetricKeyType}${curve ? ` on ${curve}` : ''}, not ECDSA P-256`;
  }
  return { ec: key };
}

function pemBody(pem: string): Buffer | null {
  const match = /-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----/.exec(pem);
  return match ? Buffer.from(match[1].replace(/\s+/g, ''), 'base64') : null;
}

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

export interface KeyDocument {
  issuer: string | null;
  keys: PublicKeyEntry[];
}

/** Every usable key of a document; throws KeyDocumentError when the document cannot be used at all. */
export function parseKeyDocument(document: unknown): KeyDocument {
  const doc = record(document);
  if (!doc) throw new KeyDocumentError('a key document is a JSON object');
  const raw: Array<{ keyId: unknown; pem: unknown; status: unknown }> = [];
  if (Array.isArray(doc.keys)) {
    for (const item of doc.keys) {
      const entry = record(item);
      if (entry) raw.push({ keyId: entry.key_id, pem: entry.public_key_pem, status: entry.status });
    }
  }
  if (Array.isArray(doc.verificationMethod)) {
    for (const item of doc.verificationMethod) {
      const entry = record(item);
      if (entry) raw.push({ keyId: entry.id, pem: entry.publicKeyPem, status: null });
    }
  }
  const keys: PublicKeyEntry[] = [];
  for (const { keyId, pem, status } of raw) {
    if (typeof keyId !== 'string' || typeof pem !== 'string') continue;
    const key = publicKeyOf(pem);
    if (typeof key === 'string') throw new KeyDocumentError(`key ${keyId}: ${key}`);
    keys.push({
      keyId,
      alg: 'ec' in key ? 'ES256' : 'ML-DSA-65',
      status: typeof status === 'string' ? status : null,
      ec: 'ec' in key ? key.ec : null,
      mldsa: 'mldsa' in key ? key.mldsa : null,
    });
  }
  return { issuer: typeof doc.issuer === 'string' ? doc.issuer : typeof doc.id === 'string' ? doc.id : null, keys };
}

/** The key a party's key_id names among documents: the entry of that id (a DID's `id#fragment` included), else
 * the only key of a document whose issuer (or DID `id`) is that key_id. */
export function partyKey(documents: readonly KeyDocument[], keyId: string): PublicKeyEntry | null {
  const all = documents.flatMap((d) => d.keys);
  const named = all.find((k) => k.keyId === keyId) ?? all.find((k) => k.keyId.startsWith(`${keyId}#`));
  if (named) return named;
  const own = documents.find((d) => d.issuer === keyId && d.keys.length === 1);
  return own ? own.keys[0] : null;
}
