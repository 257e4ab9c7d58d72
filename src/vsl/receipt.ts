import { canonicalBytes, canonicalHash, sha256Hex } from './jcs';

/** The Receipt format (vsl.md §2): 1.0 is frozen, 1.1 adds an ML-DSA-65 signature over the same digest. */

type Decision = 'PERMIT' | 'DENY';

export interface ReceiptSignature {
  key_id: string;
  alg: string;
  sig: string;
}

interface ReceiptTrigger {
  key_id: string;
  signature: string;
  timestamp: string;
}

interface ReceiptValidation {
  valid: boolean;
  structural_errors: number;
  semantic_errors: number;
  recovered: boolean;
  ev_injections: Array<{ xpath: string; ev_type: string; reason: string }>;
  validator_version: string;
}

/** A Receipt as issued (format 1.0), its fields in the issuer's order. */
export interface Receipt {
  version: '1.0';
  canonicalization: 'rfc8785';
  receipt_id: string;
  timestamp: string;
  payload_hash: string;
  payload_media_type: string;
  schema_ct_id: string;
  schema_url: string;
  schema_hash: string;
  rm_version: 'SDC4' | 'SDC5';
  validation: ReceiptValidation;
  provenance_hash: string;
  governance: { decision: Decision; dimensions_checked: string[]; receipt_hash: string; receipt_url: string | null };
  settlement: { condition_hash: string; parties: string[]; triggers: ReceiptTrigger[] };
  previous_hash: string | null;
  receipt_hash: string;
  signatures: ReceiptSignature[];
}

export type UnsignedReceipt = Omit<Receipt, 'receipt_hash' | 'signatures'>;

const ES256_SIG = /^[A-Za-z0-9_-]{86}$/;
const MLDSA65_SIG = /^[A-Za-z0-9_-]{4412}$/;
export const RECEIPT_ID = /^[a-z][a-z0-9]{23}$/;
export const RECEIPT_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** What receipt_hash covers: the Receipt less `receipt_hash`, `signatures` and `settlement.triggers` (triggers are
 * appended after signing, so parties sign independently, in any order). */
function hashedContent(receipt: Record<string, unknown>): Record<string, unknown> {
  const { receipt_hash: _hash, signatures: _signatures, ...content } = receipt;
  const settlement = content.settlement;
  if (settlement && typeof settlement === 'object' && !Array.isArray(settlement)) {
    const { triggers: _triggers, ...committed } = settlement as Record<string, unknown>;
    content.settlement = committed;
  }
  return content;
}

/** The canonical bytes the issuer signs (ECDSA-SHA256 over them = ES256 over the 32-byte digest) and their hash. */
export async function receiptDigest(receipt: Record<string, unknown>): Promise<{ bytes: Buffer; hash: string }> {
  const bytes = await canonicalBytes(hashedContent(receipt));
  return { bytes, hash: sha256Hex(bytes) };
}

/** What a party signs to trigger: binding the receipt_id stops a trigger being replayed into another Receipt. */
export const triggerMessage = (conditionHash: string, receiptId: string): Promise<Buffer> =>
  canonicalBytes({ condition_hash: conditionHash, receipt_id: receiptId });

/** The sdcgovernance decision Receipt's own receipt_hash: its 11 fields, plus three only when non-empty. */
const GOVERNANCE_FIELDS = [
  'decision',
  'reasoning',
  'status_code',
  'instance_id',
  'instance_version',
  'timestamp',
  'previous_hash',
  'dimensions_checked',
  'errors',
  'context_hash',
  'canonicalization',
] as const;
const GOVERNANCE_OPTIONAL = ['source_instance_id', 'source_version_id', 'obligations'] as const;

function governanceHashed(record: Record<string, unknown>): Record<string, unknown> {
  const hashed: Record<string, unknown> = {};
  for (const field of GOVERNANCE_FIELDS) hashed[field] = record[field];
  for (const field of GOVERNANCE_OPTIONAL) {
    const value = record[field];
    const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (!empty) hashed[field] = value;
  }
  return hashed;
}

export const governanceReceiptHash = (record: Record<string, unknown>): Promise<string> => canonicalHash(governanceHashed(record));

/** Strict base64url decoding: exactly the characters of the alphabet and the length the algorithm fixes. */
export function decodeSignature(sig: string, alg: 'ES256' | 'ML-DSA-65'): Buffer | string {
  const pattern = alg === 'ES256' ? ES256_SIG : MLDSA65_SIG;
  if (!pattern.test(sig)) {
    const expected = alg === 'ES256' ? '86 (64 bytes, IEEE P1363 r‖s)' : '4412 (3309 bytes)';
    return `an ${alg} signature is exactly ${expected} base64url characters; this one has ${sig.length}`;
  }
  return Buffer.from(sig, 'base64url');
}
