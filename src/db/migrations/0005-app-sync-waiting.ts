import type { Migration } from './migration';

/** Interface B: instances waiting for the triplestore (failed for good, or pending after a failed attempt) are
 * found by the resync sweep without scanning every instance. */
export const appSyncWaiting: Migration = {
  id: '0005-app-sync-waiting',
  sql: `
DROP INDEX app_instances_failed_idx;
CREATE INDEX app_instances_sync_waiting_idx ON app_instances (id)
  WHERE rdf_sync_status = 'failed' OR (rdf_sync_status = 'pending' AND rdf_sync_error IS NOT NULL);
`,
};
