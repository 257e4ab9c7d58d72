import type { Migration } from './migration';

/** validate/xml writes an instance row of about 5.5 KB (the XML twice, the JSON rendering), which Postgres
 * compressed with pglz on every insert (the embedded Postgres has no lz4): the row now stays whole and
 * uncompressed up to a page. The graph's N-Triples stay compressed: stored out of line uncompressed, the extra WAL
 * written cost as much as pglz saved. */
export const appRowStorage: Migration = {
  id: '0018-app-row-storage',
  sql: `
ALTER TABLE app_instances SET (toast_tuple_target = 8160);
`,
};
