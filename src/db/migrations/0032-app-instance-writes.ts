import type { Migration } from './migration';

/** The running-sum upsert of one trigger branch: `rows` (organisation, triples, bytes deltas) added per organisation,
 * rows sorted by organisation so that concurrent statements lock them in one order (migration 0031's rule). */
const addUsage = (rows: string) => `
    INSERT INTO app_storage_usage AS u (organization, triples, bytes)
    SELECT o, sum(t), sum(b) FROM (${rows}) AS d(o, t, b) GROUP BY o HAVING sum(t) <> 0 OR sum(b) <> 0 ORDER BY o
    ON CONFLICT (organization) DO UPDATE SET triples = u.triples + EXCLUDED.triples, bytes = u.bytes + EXCLUDED.bytes;`;

/** A statement trigger function keeping `app_storage_usage` for one table: `delta(rows, sign)` selects each row's
 * (organisation, triples, bytes) from a transition table with the given sign. */
const usageFunction = (name: string, delta: (rows: string, sign: '' | '-') => string) => `
CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN${addUsage(delta('new_rows', ''))}
  ELSIF TG_OP = 'DELETE' THEN${addUsage(delta('old_rows', '-'))}
  ELSE${addUsage(`${delta('new_rows', '')} UNION ALL ${delta('old_rows', '-')}`)}
  END IF;
  RETURN NULL;
END $$;`;

/**
 * validate/xml's write costs Postgres less (issue 28: CPU per validation).
 *
 * Migration 0031's storage-usage triggers called a SQL function with arrays (`PERFORM app_storage_usage_add(
 * array_agg(…))`): a second statement per trigger, planned as a function call, that unnested what the first had just
 * aggregated. Each trigger now runs its upsert itself (one statement, its plan cached by PL/pgSQL): a stored batch
 * of instances fires three of them (graphs inserted, graphs "updated" by the ON CONFLICT path, instances inserted),
 * which cost about 190 µs of Postgres CPU per batch before and about 120 µs now. The sums and their rule are
 * unchanged (same deltas, same lock order); app_storage_usage_add goes, as nothing calls it.
 *
 * app_instances_dm_idx (dm_ct_id, created_at) served no query (instances are read by instance_id, the sync sweep
 * by its own partial index), and every stored instance paid its insert.
 */
export const appInstanceWrites: Migration = {
  id: '0032-app-instance-writes',
  sql: `
${usageFunction('app_graphs_usage', (rows, sign) => `SELECT coalesce(organization, ''), ${sign}triple_count::bigint, 0::bigint FROM ${rows}`)}
${usageFunction('app_instances_usage', (rows, sign) => `SELECT coalesce(organization, ''), 0::bigint, ${sign}stored_bytes FROM ${rows}`)}
${usageFunction('app_uploads_usage', (rows, sign) => `SELECT organization, 0::bigint, ${sign}size FROM ${rows}`)}
DROP FUNCTION app_storage_usage_add(bigint[], bigint[], text[]);
DROP INDEX app_instances_dm_idx;
`,
};
