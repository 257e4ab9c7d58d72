import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  currentSigningKey,
  insertSigningKey,
  lockSigningKeys,
  retireCurrentSigningKey,
  signingKey,
  signingKeys,
  type SigningKeyRow,
} from '../db/queries/signing.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried, type Tx } from '../db/transaction';
import { DomainError, notFound } from '../lib/errors';
import { ed25519PublicKey } from '../parsers/signing.parser';
import type { SignedInstanceView, SigningKeyView } from '../presenters/signing.presenter';
import { signXml, verifyXml, type Verification } from '../xml/signature';
import type { Clock } from './clock';

export interface SigningMeta {
  schemaCtId: string;
  evCount: number;
  issuer: string;
}

const view = (row: SigningKeyRow): SigningKeyView => ({ kid: row.kid, x: row.public_x, createdAt: row.created_at, retiredAt: row.retired_at });

/** RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, base64url. */
const jwkThumbprint = (x: string) =>
  createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');

/** The studio's Ed25519 signing keys (made on first use, rotated on demand, old public keys kept) and the
 * signatures made with the current one. Private keys are stored as PKCS#8 PEM, unencrypted. */
export class SigningService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Every key, the current one first, then the most recently retired. */
  async keys(): Promise<SigningKeyView[]> {
    await this.current();
    const all = await query(this.db, signingKeys());
    return all.map(view);
  }

  async currentKey(): Promise<SigningKeyView> {
    return view(await this.current());
  }

  async key(kid: string): Promise<SigningKeyView> {
    const row = await queryOne(this.db, signingKey(kid));
    if (!row) throw notFound('Signing key');
    return view(row);
  }

  /** Retires the current key (kept for verification) and makes a new one current. */
  async rotate(): Promise<{ current: SigningKeyView; retired: SigningKeyView | null }> {
    return transactionRetried(this.db, async (tx) => {
      await query(tx, lockSigningKeys());
      const retired = await queryOne(tx, retireCurrentSigningKey(this.clock.now()));
      const current = await this.insertKey(tx);
      return { current: view(current), retired: retired ? view(retired) : null };
    });
  }

  /** An enveloped XML Signature by the current key over the instance and the signed properties. */
  async sign(xml: string, meta: SigningMeta): Promise<SignedInstanceView> {
    const key = await this.current();
    const timestamp = this.clock.now().toISOString();
    let signedXml: string;
    try {
      signedXml = signXml(xml, { privateKey: createPrivateKey(key.private_key_pem), kid: key.kid }, { ...meta, timestamp });
    } catch (error) {
      throw new DomainError(400, 'invalid_request', `The instance cannot be signed: ${(error as Error).message}.`, {}, { cause: error });
    }
    return {
      signedXml,
      signature: { algorithm: 'Ed25519', issuer: meta.issuer, timestamp, schemaCtId: meta.schemaCtId, evCount: meta.evCount, keyId: key.kid },
    };
  }

  /** The current key's id and private key (PKCS#8 PEM), for signing in a worker thread (signWith). */
  async currentSigner(): Promise<{ kid: string; privateKeyPem: string }> {
    const key = await this.current();
    return { kid: key.kid, privateKeyPem: key.private_key_pem };
  }

  verify(signedXml: string, keys: readonly SigningKeyView[]): Verification {
    return verifyXml(signedXml, new Map<string, KeyObject>(keys.map((k) => [k.kid, ed25519PublicKey(k.x)])));
  }

  /** The current key row, made on first use. */
  private async current(): Promise<SigningKeyRow> {
    const found = await queryOne(this.db, currentSigningKey());
    if (found) return found;
    return transactionRetried(this.db, async (tx) => {
      await query(tx, lockSigningKeys());
      const made = await queryOne(tx, currentSigningKey());
      return made ?? this.insertKey(tx);
    });
  }

  private async insertKey(tx: Tx): Promise<SigningKeyRow> {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const x = publicKey.export({ format: 'jwk' }).x as string;
    const privateKeyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const [row] = await query(tx, insertSigningKey({ kid: jwkThumbprint(x), publicX: x, privateKeyPem, createdAt: this.clock.now() }));
    return row;
  }
}
