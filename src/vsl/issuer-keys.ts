import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import type { DataSource } from 'typeorm';
import * as q from '../db/queries/vsl.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried, type Tx } from '../db/transaction';
import { notFound } from '../lib/errors';
import type { Clock } from '../services/clock';
import type { ReceiptSignature } from './receipt';

/** An issuer key as the key document publishes it. */
export interface IssuerKeyView {
  keyId: string;
  publicKeyPem: string;
  status: 'active' | 'retired' | 'revoked';
  notBefore: Date;
  notAfter: Date | null;
  /** The JWK coordinates (RFC 7518 EC, P-256). */
  x: string;
  y: string;
}

const KEY_ID_PREFIX = 'sdcstudio-signing-key-v';

function view(row: q.VslKeyRow): IssuerKeyView {
  const jwk = createPublicKey(row.public_key_pem).export({ format: 'jwk' });
  return {
    keyId: row.key_id,
    publicKeyPem: row.public_key_pem,
    status: row.status,
    notBefore: row.not_before,
    notAfter: row.not_after,
    x: jwk.x!,
    y: jwk.y!,
  };
}

/** The issuer's ECDSA P-256 keys: one active key signs (made on first use), rotation retires it (published on,
 * with its not_after) and makes the next `sdcstudio-signing-key-vN`; a revoked key fails every Receipt naming it. */
export class IssuerKeys {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async all(): Promise<IssuerKeyView[]> {
    await this.active();
    return (await query(this.db, q.allKeys())).map(view);
  }

  /** ES256 over the canonical bytes (= ECDSA over their SHA-256 digest), IEEE P1363 r‖s, base64url: 86 characters. */
  async sign(canonical: Buffer): Promise<ReceiptSignature> {
    const key = await this.active();
    const sig = sign('sha256', canonical, { key: createPrivateKey(key.private_key_pem), dsaEncoding: 'ieee-p1363' });
    return { key_id: key.key_id, alg: 'ES256', sig: sig.toString('base64url') };
  }

  async rotate(): Promise<{ active: IssuerKeyView; retired: IssuerKeyView | null }> {
    return transactionRetried(this.db, async (tx) => {
      await query(tx, q.lockKeys());
      const [retired] = await query(tx, q.retireActive(this.clock.now()));
      const active = await this.make(tx);
      return { active: view(active), retired: retired ? view(retired) : null };
    });
  }

  async revoke(keyId: string): Promise<IssuerKeyView> {
    return transactionRetried(this.db, async (tx) => {
      await query(tx, q.lockKeys());
      const row = await queryOne(tx, q.revokeKey(keyId, this.clock.now()));
      if (!row) throw notFound('Issuer key');
      return view(row);
    });
  }

  private async active(): Promise<q.VslKeyRow> {
    const found = await queryOne(this.db, q.activeKey());
    if (found) return found;
    return transactionRetried(this.db, async (tx) => {
      await query(tx, q.lockKeys());
      return (await queryOne(tx, q.activeKey())) ?? this.make(tx);
    });
  }

  private async make(tx: Tx): Promise<q.VslKeyRow> {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const count = Number((await queryOne(tx, q.keyCount()))!.n);
    const now = this.clock.now();
    return (await queryOne(
      tx,
      q.insertKey({
        key_id: `${KEY_ID_PREFIX}${count + 1}`,
        public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
        private_key_pem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
        status: 'active',
        not_before: now,
        created_at: now,
      }),
    ))!;
  }
}
