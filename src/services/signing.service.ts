import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { rows } from '../db/sql';
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

interface KeyRow {
  kid: string;
  public_x: string;
  private_key_pem: string;
  created_at: Date;
  retired_at: Date | null;
}

const view = (row: KeyRow): SigningKeyView => ({ kid: row.kid, x: row.public_x, createdAt: row.created_at, retiredAt: row.retired_at });

/** RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, base64url. */
const jwkThumbprint = (x: string) =>
  createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');

/** Keys made, rotated and retired one at a time across processes (first use and rotation take this lock). */
const KEY_LOCK = "SELECT pg_advisory_xact_lock(hashtext('sdc-gateway:signing-keys'))";
const CURRENT = 'SELECT * FROM signing_keys WHERE retired_at IS NULL';

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
    const all = await rows<KeyRow>(this.db, 'SELECT * FROM signing_keys ORDER BY retired_at DESC NULLS FIRST, created_at DESC');
    return all.map(view);
  }

  async currentKey(): Promise<SigningKeyView> {
    return view(await this.current());
  }

  async key(kid: string): Promise<SigningKeyView> {
    const [row] = await rows<KeyRow>(this.db, 'SELECT * FROM signing_keys WHERE kid = $1', [kid]);
    if (!row) throw notFound('Signing key');
    return view(row);
  }

  /** Retires the current key (kept for verification) and makes a new one current. */
  async rotate(): Promise<{ current: SigningKeyView; retired: SigningKeyView | null }> {
    return this.db.transaction(async (tx) => {
      await rows(tx, KEY_LOCK);
      const [retired] = await rows<KeyRow>(tx, 'UPDATE signing_keys SET retired_at = $1 WHERE retired_at IS NULL RETURNING *', [this.clock.now()]);
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
  private async current(): Promise<KeyRow> {
    const [found] = await rows<KeyRow>(this.db, CURRENT);
    if (found) return found;
    return this.db.transaction(async (tx) => {
      await rows(tx, KEY_LOCK);
      const [made] = await rows<KeyRow>(tx, CURRENT);
      return made ?? this.insertKey(tx);
    });
  }

  private async insertKey(tx: EntityManager): Promise<KeyRow> {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const x = publicKey.export({ format: 'jwk' }).x as string;
    const [row] = await rows<KeyRow>(
      tx,
      'INSERT INTO signing_keys (kid, public_x, private_key_pem, created_at) VALUES ($1, $2, $3, $4) RETURNING *',
      [jwkThumbprint(x), x, privateKey.export({ format: 'pem', type: 'pkcs8' }), this.clock.now()],
    );
    return row;
  }
}
