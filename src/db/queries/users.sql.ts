import { User } from '../../entities/user.entity';
import { sql } from '../sql';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  is_staff: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A user by email, case folded: sign-in and the CLI find an account however its email was typed. */
export const userByEmail = (email: string) =>
  sql<UserRow>('SELECT id, email, name, password_hash, is_staff, created_at, updated_at FROM users WHERE lower(email) = lower($1)', [email]);

/** The entity of a user row (the shape TypeORM would have built). */
export const userOf = (row: UserRow): User =>
  Object.assign(new User(), {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    isStaff: row.is_staff,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

/** A new user's empty wallet. */
export const insertWallet = (userId: number) => sql('INSERT INTO wallets (user_id) VALUES ($1)', [userId]);

/** Serialises key changes per user. FOR NO KEY UPDATE, the first lock of src/db/queries/ledger.sql.ts's order:
 * it never waits for the foreign-key lock a charge takes. */
export const lockUserForKeys = (userId: number) => sql('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
