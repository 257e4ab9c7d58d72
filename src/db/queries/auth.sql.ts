import { ApiKey, type Scope } from '../../entities/api-key.entity';
import { sql, type Sql } from '../sql';

/** Statements of the authentication hot path. Each has a fixed name: src/db/prepared.ts runs it as a prepared
 * statement, parsed and planned once per connection. */
export interface Named<Row> extends Sql<Row> {
  name: string;
}

const named = <Row>(name: string, statement: Sql<Row>): Named<Row> => ({ name, ...statement });

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string | null;
  is_legacy: boolean;
  key_hash: string;
  prefix: string;
  scopes: string[];
  spend_limit_credits: string | null;
  spent_credits: string;
  held_credits: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

const API_KEY_COLUMNS = `k.id, k.user_id, k.name, k.is_legacy, k.key_hash, k.prefix, k.scopes, k.spend_limit_credits, k.spent_credits,
              k.held_credits, k.expires_at, k.revoked_at, k.last_used_at, k.created_at`;

export interface StudioKeyRow extends ApiKeyRow {
  email: string;
  user_name: string;
  password_hash: string;
  is_staff: boolean;
  user_created_at: Date;
  user_updated_at: Date;
}

/** An Interface A key and its user, in one round trip. */
export const studioKeyByHash = (keyHash: string) =>
  named(
    'auth_studio_key_by_hash',
    sql<StudioKeyRow>(
      `SELECT ${API_KEY_COLUMNS},
              u.email, u.name AS user_name, u.password_hash, u.is_staff, u.created_at AS user_created_at, u.updated_at AS user_updated_at
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_hash = $1`,
      [keyHash],
    ),
  );

/** A user's named keys, newest first (the key list of Interface A). */
export const namedKeysOf = (userId: number) =>
  named(
    'auth_named_keys_of',
    sql<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys k WHERE k.user_id = $1 AND NOT k.is_legacy ORDER BY k.created_at DESC, k.id DESC`, [
      userId,
    ]),
  );

/** The entity of a key row (the shape TypeORM would have built). */
export function apiKeyOf(row: ApiKeyRow): ApiKey {
  return Object.assign(new ApiKey(), {
    id: Number(row.id),
    userId: Number(row.user_id),
    name: row.name,
    isLegacy: row.is_legacy,
    keyHash: row.key_hash,
    prefix: row.prefix,
    scopes: row.scopes as Scope[],
    spendLimitCredits: row.spend_limit_credits === null ? null : Number(row.spend_limit_credits),
    spentCredits: Number(row.spent_credits),
    heldCredits: Number(row.held_credits),
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
  });
}

export interface AppKeyRow {
  id: string;
  key_hash: string;
  organization: string;
}

/** An active Interface B organisation key. */
export const activeAppKeyByHash = (keyHash: string) =>
  named('auth_app_key_by_hash', sql<AppKeyRow>('SELECT id, key_hash, organization FROM app_api_keys WHERE key_hash = $1 AND is_active', [keyHash]));

/** Adds the requests counted in memory since the last flush, one statement for every key. `last_used` never moves
 * back (two processes may flush out of order). */
export const addAppKeyUsage = (ids: number[], counts: number[], lastUsed: Date[]) =>
  named(
    'auth_app_key_usage',
    sql<never>(
      `UPDATE app_api_keys AS k SET request_count = k.request_count + u.n, last_used = GREATEST(k.last_used, u.at)
         FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[]) AS u(id, n, at)
        WHERE k.id = u.id`,
      [ids, counts, lastUsed],
    ),
  );

/** Stamps Interface A keys' last use, one statement for every key. */
export const touchStudioKeys = (ids: number[], lastUsed: Date[]) =>
  named(
    'auth_studio_key_touch',
    sql<never>(
      `UPDATE api_keys AS k SET last_used_at = GREATEST(k.last_used_at, u.at)
         FROM unnest($1::bigint[], $2::timestamptz[]) AS u(id, at)
        WHERE k.id = u.id`,
      [ids, lastUsed],
    ),
  );
