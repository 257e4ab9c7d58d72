import type { Migration } from './migration';

/** validate/xml writes an instance row of about 5.5 KB (the XML twice, the JSON rendering) and a graph of about
 * 10 KB of N-Triples per request, and Postgres compressed both with pglz on every insert (the embedded Postgres
 * has no lz4). An instance row now stays whole and uncompressed up to a page; the N-Triples go out of line
 * uncompressed (more bytes on disk, less CPU per insert). The bytes read back are the same. */
export const appRowStorage: Migration = {
  id: '0018-app-row-storage',
  sql: `
ALTER TABLE app_instances SET (toast_tuple_target = 8160);
ALTER TABLE app_graphs ALTER COLUMN ntriples SET STORAGE EXTERNAL;
`,
};
