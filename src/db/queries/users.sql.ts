import { sql } from '../sql';

/** A new user's empty wallet. */
export const insertWallet = (userId: number) => sql('INSERT INTO wallets (user_id) VALUES ($1)', [userId]);

/** Serialises key changes per user. FOR NO KEY UPDATE, the first lock of src/db/queries/ledger.sql.ts's order:
 * it never waits for the foreign-key lock a charge takes. */
export const lockUserForKeys = (userId: number) => sql('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
