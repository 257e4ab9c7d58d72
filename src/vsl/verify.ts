import { verify as verifySignature } from 'node:crypto';
import { parseKeyDocument, partyKey, type KeyDocument, type PublicKeyEntry } from './key-document';
import { decodeSignature, governanceReceiptHash, receiptDigest, triggerMessage } from './receipt';
import { schemaProblems } from './receipt.schema';
import { sha256Hex } from './jcs';

/** The offline verifier (vsl.md §7): what `sdcreceipt verify R --keys issuer --keys partyA --keys partyB` shows,
 * check by check, with the same check names (`schema`, `receipt_hash`, `signatures.algorithms`,
 * `signature[key_id]`, `trigger[key_id]`, `triggers.unique`, `settlement.complete`, `payload_hash`,
 * `governance.receipt_hash`, `governance.decision`). VERIFIED only when every check passed; a check that cannot be
 * decided (a trigger without its party's key) is unestablished, and that is not a pass. */

type CheckStatus = 'pass' | 'fail' | 'unestablished';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface Verdict {
  verified: boolean;
  checks: Check[];
}

export interface VerifyOptions {
  /** Key documents (issuer's and parties'), parsed or as JSON values. */
  keys: readonly unknown[];
  /** The payload bytes, to check payload_hash. */
  payload?: Uint8Array | string;
  /** The sdcgovernance decision Receipt the Receipt binds. */
  governance?: Record<string, unknown>;
  /** Another copy of the version's JSON Schema; `false` skips the schema check (the kit's "without schema"). */
  schema?: Record<string, unknown> | false;
}

type MlDsa = { verify: (sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array) => boolean };
let mldsa: Promise<MlDsa> | null = null;
/** Pure FIPS 204 ML-DSA-65 (@noble/post-quantum, ESM-only): Node 20's crypto cannot load these keys. */
const mlDsa65 = (): Promise<MlDsa> => (mldsa ??= import('@noble/post-quantum/ml-dsa.js').then((m) => m.ml_dsa65 as unknown as MlDsa));

const isKeyDocument = (value: unknown): value is KeyDocument =>
  !!value &&
  typeof value === 'object' &&
  Array.isArray((value as KeyDocument).keys) &&
  'issuer' in value &&
  (value as KeyDocument).keys.every((k) => 'alg' in k && 'ec' in k);

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export async function verifyReceipt(input: unknown, options: VerifyOptions): Promise<Verdict> {
  const checks: Check[] = [];
  const add = (name: string, status: CheckStatus, detail: string) => checks.push({ name, status, detail });
  const receipt = record(input);

  const documents: KeyDocument[] = [];
  for (const doc of options.keys) {
    try {
      documents.push(isKeyDocument(doc) ? doc : parseKeyDocument(doc));
    } catch (error) {
      add('keys', 'fail', `a key document is unusable: ${(error as Error).message}`);
    }
  }

  if (options.schema !== false) {
    const problems = schemaProblems(input, options.schema);
    add(
      'schema',
      problems.length ? 'fail' : 'pass',
      problems.length ? problems.slice(0, 5).join('; ') : `conforms to Receipt ${String(receipt.version)}`,
    );
  }

  const digest = await receiptDigest(receipt);
  add(
    'receipt_hash',
    digest.hash === receipt.receipt_hash ? 'pass' : 'fail',
    digest.hash === receipt.receipt_hash ? digest.hash : `recorded ${String(receipt.receipt_hash)}, canonical content hashes to ${digest.hash}`,
  );

  const signatures = Array.isArray(receipt.signatures) ? receipt.signatures.map(record) : [];
  const algs = new Set(signatures.map((s) => s.alg));
  const required = receipt.version === '1.1' ? ['ES256', 'ML-DSA-65'] : ['ES256'];
  const missing = required.filter((alg) => !algs.has(alg));
  const foreign = receipt.version === '1.0' ? [...algs].filter((alg) => alg !== 'ES256') : [];
  add(
    'signatures.algorithms',
    missing.length || foreign.length || !signatures.length ? 'fail' : 'pass',
    missing.length
      ? `Receipt ${String(receipt.version)} needs ${missing.join(' and ')}`
      : foreign.length
        ? `Receipt 1.0 is signed ES256 only, not ${foreign.join(', ')}`
        : required.join(' + '),
  );
  const issuerKeys = documents.flatMap((d) => d.keys);
  for (const signature of signatures) {
    const name = `signature[${String(signature.key_id)}]`;
    const outcome = await issuerSignature(signature, issuerKeys, digest);
    add(name, outcome === null ? 'pass' : 'fail', outcome ?? `${String(signature.alg)} over the 32-byte digest`);
  }

  const settlement = record(receipt.settlement);
  const parties = Array.isArray(settlement.parties) ? settlement.parties.filter((p): p is string => typeof p === 'string') : [];
  const triggers = Array.isArray(settlement.triggers) ? settlement.triggers.map(record) : [];
  const verifiedParties = new Set<string>();
  const unestablished = new Set<string>();
  for (const trigger of triggers) {
    const keyId = String(trigger.key_id);
    const name = `trigger[${keyId}]`;
    if (!parties.includes(keyId)) {
      add(name, 'fail', 'names no listed party');
      continue;
    }
    const key = partyKey(documents, keyId);
    if (!key) {
      unestablished.add(keyId);
      add(name, 'unestablished', "no key document for this party was given: the trigger's authorization cannot be checked");
      continue;
    }
    const problem = await partySignature(trigger, key, String(settlement.condition_hash), String(receipt.receipt_id));
    if (problem === null) verifiedParties.add(keyId);
    add(name, problem === null ? 'pass' : 'fail', problem ?? 'ES256 over {condition_hash, receipt_id}');
  }
  const seen = triggers.map((t) => String(t.key_id));
  const duplicates = [...new Set(seen.filter((k, i) => seen.indexOf(k) !== i))];
  add(
    'triggers.unique',
    duplicates.length ? 'fail' : 'pass',
    duplicates.length ? `more than one trigger from ${duplicates.join(', ')}` : `${seen.length} distinct`,
  );
  const awaiting = parties.filter((p) => !verifiedParties.has(p));
  const undecided = awaiting.filter((p) => unestablished.has(p));
  if (parties.length > 0 && awaiting.length === 0) add('settlement.complete', 'pass', `every party (${parties.length}) triggered`);
  else if (undecided.length === awaiting.length && undecided.length > 0) {
    add('settlement.complete', 'unestablished', `no key to check the triggers of ${undecided.join(', ')}`);
  } else add('settlement.complete', 'fail', `no verified trigger from ${awaiting.join(', ')}`);

  if (options.payload !== undefined) {
    const hash = sha256Hex(options.payload);
    add('payload_hash', hash === receipt.payload_hash ? 'pass' : 'fail', hash === receipt.payload_hash ? hash : `the payload hashes to ${hash}`);
  }
  if (options.governance) {
    const governance = record(receipt.governance);
    const bound = await governanceReceiptHash(options.governance);
    const ok = bound === governance.receipt_hash && bound === options.governance.receipt_hash;
    add(
      'governance.receipt_hash',
      ok ? 'pass' : 'fail',
      ok ? bound : `the governance Receipt given hashes to ${bound}; the Receipt commits to ${String(governance.receipt_hash)}`,
    );
    const same = options.governance.decision === governance.decision;
    add('governance.decision', same ? 'pass' : 'fail', `${String(options.governance.decision)} / ${String(governance.decision)}`);
  }
  return { verified: checks.every((c) => c.status === 'pass'), checks };
}

async function issuerSignature(
  signature: Record<string, unknown>,
  keys: PublicKeyEntry[],
  digest: { bytes: Buffer; hash: string },
): Promise<string | null> {
  const alg = signature.alg;
  if (alg !== 'ES256' && alg !== 'ML-DSA-65') return `unsupported alg ${JSON.stringify(alg)}`;
  const key = keys.find((k) => k.keyId === signature.key_id && k.alg === alg);
  if (!key) return `no ${alg} key ${JSON.stringify(signature.key_id)} in the issuer key document`;
  if (key.status === 'revoked') return `key ${key.keyId} is revoked`;
  const sig = decodeSignature(String(signature.sig), alg);
  if (typeof sig === 'string') return sig;
  if (alg === 'ES256') {
    return verifySignature('sha256', digest.bytes, { key: key.ec!, dsaEncoding: 'ieee-p1363' }, sig)
      ? null
      : 'does not verify over the canonical content';
  }
  const ok = (await mlDsa65()).verify(new Uint8Array(sig), Buffer.from(digest.hash, 'hex'), key.mldsa!);
  return ok ? null : 'does not verify over the 32-byte digest';
}

async function partySignature(
  trigger: Record<string, unknown>,
  key: PublicKeyEntry,
  conditionHash: string,
  receiptId: string,
): Promise<string | null> {
  if (key.alg !== 'ES256' || !key.ec) return `the party key is ${key.alg}, not ES256 (P-256)`;
  if (key.status === 'revoked') return `key ${key.keyId} is revoked`;
  const sig = decodeSignature(String(trigger.signature), 'ES256');
  if (typeof sig === 'string') return sig;
  const message = await triggerMessage(conditionHash, receiptId);
  return verifySignature('sha256', message, { key: key.ec, dsaEncoding: 'ieee-p1363' }, sig)
    ? null
    : 'does not verify over {condition_hash, receipt_id} of this Receipt';
}
