import type { EntityManager } from 'typeorm';
import { rows } from './sql';

/** pg-boss's `db` option over an open TypeORM transaction: the message is written on the same connection. */
export function transactionDb(manager: EntityManager): { executeSql: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }> } {
  return { executeSql: async (text, values) => ({ rows: await rows(manager, text, values) }) };
}
