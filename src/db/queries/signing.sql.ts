import { sql } from '../sql';

/** The studio's Ed25519 signing keys (`signing_keys`): one current (retired_at NULL), the retired ones kept. */

export interface SigningKeyRow {
  kid: string;
  public_x: string;
  private_key_pem: string;
  created_at: Date;
  retired_at: Date | null;
}

/** Keys are made, rotated and retired one at a time across processes: first use and rotation take this lock. */
export const lockSigningKeys = () => sql("SELECT pg_advisory_xact_lock(hashtext('sdc-gateway:signing-keys'))");

export const currentSigningKey = () => sql<SigningKeyRow>('SELECT * FROM signing_keys WHERE retired_at IS NULL');

/** Every key, the current one first, then the most recently retired. */
export const signingKeys = () => sql<SigningKeyRow>('SELECT * FROM signing_keys ORDER BY retired_at DESC NULLS FIRST, created_at DESC');

export const signingKey = (kid: string) => sql<SigningKeyRow>('SELECT * FROM signing_keys WHERE kid = $1', [kid]);

export const retireCurrentSigningKey = (now: Date) =>
  sql<SigningKeyRow>('UPDATE signing_keys SET retired_at = $1 WHERE retired_at IS NULL RETURNING *', [now]);

export const insertSigningKey = (key: { kid: string; publicX: string; privateKeyPem: string; createdAt: Date }) =>
  sql<SigningKeyRow>('INSERT INTO signing_keys (kid, public_x, private_key_pem, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
    key.kid,
    key.publicX,
    key.privateKeyPem,
    key.createdAt,
  ]);
