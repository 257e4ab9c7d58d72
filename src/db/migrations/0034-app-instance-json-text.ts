import type { Migration } from './migration';

/**
 * An instance's JSON rendering is stored as `json`, the text as the thread wrote it, not as `jsonb`: Postgres no
 * longer parses it into jsonb's binary form (and sorts its keys) on every stored validation, about 5 % of its CPU
 * per validate/xml request; the column is only ever stored and read back whole (never queried inside), and reads
 * give the same JSON value (its keys in the document's order).
 */
export const appInstanceJsonText: Migration = {
  id: '0034-app-instance-json-text',
  sql: `
ALTER TABLE app_instances ALTER COLUMN json_rendering TYPE json USING json_rendering::json;
`,
};
