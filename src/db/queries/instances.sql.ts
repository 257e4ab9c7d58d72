import { sql } from '../sql';
import type { Named } from './auth.sql';

/** One validated instance as stored: its row, its graph, and whether its triplestore sync is queued. */
export interface StoredInstance {
  instanceId: string;
  dmCtId: string;
  dmLabel: string;
  validationStatus: string;
  storageType: string;
  originalXml: string;
  /** null: the original is the corrected text (sent and stored once, migration 0033). */
  correctedXml: string | null;
  /** JSON texts. */
  validationErrors: string | null;
  autoCorrectedFields: string;
  corrections: string;
  jsonText: string;
  graphUri: string;
  rdfSyncStatus: string;
  apiKeyId: number;
  /** The organisation of the key that stored it, and the bytes it stores (its quota's measure). */
  organization: string;
  storedBytes: number;
  /** The graph as Turtle (column `ntriples`: N-Triples is Turtle too; see GraphRecord). */
  ntriples: string;
  tripleCount: number;
}

/** Each stored column with its Postgres type, in parameter order. */
const COLUMNS = [
  ['instanceId', 'text'],
  ['dmCtId', 'text'],
  ['dmLabel', 'text'],
  ['validationStatus', 'text'],
  ['storageType', 'text'],
  ['originalXml', 'text'],
  ['correctedXml', 'text'],
  ['validationErrors', 'jsonb'],
  ['autoCorrectedFields', 'jsonb'],
  ['corrections', 'jsonb'],
  ['jsonText', 'json'],
  ['graphUri', 'text'],
  ['rdfSyncStatus', 'text'],
  ['apiKeyId', 'bigint'],
  ['organization', 'text'],
  ['storedBytes', 'bigint'],
  ['ntriples', 'text'],
  ['tripleCount', 'int'],
] as const satisfies ReadonlyArray<readonly [keyof StoredInstance, string]>;

/** The most rows one statement writes; a larger batch is written by several, in one transaction. */
const MAX_ROWS = 32;

/** The most characters of text (XML, JSON, Turtle) one statement carries; a row with more is written alone. The
 * event loop encodes a statement's parameters in one go and then writes them: 32 rows of a 2 MB instance were one
 * 100 MB message, an event-loop stall every other request waited behind (issue 30). Under the bound each stall is
 * about a millisecond, and the other requests' turns come between the statements. */
const MAX_STATEMENT_CHARS = 1024 * 1024;

const textChars = (i: StoredInstance) => i.originalXml.length + (i.correctedXml?.length ?? 0) + i.jsonText.length + i.ntriples.length;

/** A batch's rows in statement-sized groups, in order: at most MAX_ROWS rows and MAX_STATEMENT_CHARS of text each
 * (a larger row alone). */
export function statementGroups(instances: StoredInstance[]): StoredInstance[][] {
  const groups: StoredInstance[][] = [];
  let group: StoredInstance[] = [];
  let chars = 0;
  for (const instance of instances) {
    const size = textChars(instance);
    if (group.length > 0 && (group.length >= MAX_ROWS || chars + size > MAX_STATEMENT_CHARS)) {
      groups.push(group);
      group = [];
      chars = 0;
    }
    group.push(instance);
    chars += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * The instances and their graphs in one statement (one round trip and one executor run; a graph row is visible to
 * its instance's foreign key). Each value is a parameter of its own, so Postgres parses no array literal. The row
 * count is rounded up to a power of two, the spare rows all null and skipped, so a connection prepares (plans) at
 * most six shapes, each once.
 */
function storeStatement(rows: number): { name: string; text: string } {
  const values = Array.from(
    { length: rows },
    (_, row) => `(${COLUMNS.map(([, type], column) => `$${row * COLUMNS.length + column + 1}::${type}`).join(', ')})`,
  );
  return {
    name: `store_instances_${rows}`,
    text: `
WITH input (instance_id, dm_ct_id, dm_label, validation_status, storage_type, original_xml, corrected_xml, validation_errors,
    auto_corrected_fields, corrections, json_rendering, graph_uri, rdf_sync_status, api_key_id, organization, stored_bytes, ntriples,
    triple_count) AS (
  VALUES ${values.join(',\n    ')}),
graph AS (
  INSERT INTO app_graphs (graph_uri, source, ntriples, triple_count, organization)
  SELECT graph_uri, 'instance', ntriples, triple_count, organization FROM input WHERE instance_id IS NOT NULL
  ON CONFLICT (graph_uri) DO UPDATE SET ntriples = EXCLUDED.ntriples, triple_count = EXCLUDED.triple_count,
    organization = EXCLUDED.organization,
    revision = nextval('app_graph_revision'), updated_at = clock_timestamp()
  RETURNING graph_uri)
INSERT INTO app_instances (instance_id, dm_ct_id, dm_label, validation_status, storage_type, original_xml, corrected_xml,
  validation_errors, auto_corrected_fields, corrections, json_rendering, graph_uri, rdf_sync_status, api_key_id, organization,
  stored_bytes)
SELECT i.instance_id, i.dm_ct_id, i.dm_label, i.validation_status, i.storage_type, i.original_xml,
  i.corrected_xml, i.validation_errors, i.auto_corrected_fields, i.corrections, i.json_rendering,
  graph.graph_uri, i.rdf_sync_status, i.api_key_id, i.organization, i.stored_bytes
FROM input i JOIN graph USING (graph_uri)`,
  };
}

const STATEMENTS = new Map<number, { name: string; text: string }>();

/** The statement that stores `instances` (at most MAX_ROWS), with its parameters. */
export function storeInstances(instances: StoredInstance[]): Named<never> {
  const rows = 2 ** Math.ceil(Math.log2(instances.length));
  let statement = STATEMENTS.get(rows);
  if (!statement) STATEMENTS.set(rows, (statement = storeStatement(rows)));
  const values: unknown[] = instances.flatMap((instance) => COLUMNS.map(([column]) => instance[column]));
  while (values.length < rows * COLUMNS.length) values.push(null);
  return { ...statement, values };
}

/** What an organisation stores in Interface B: its graphs' triples, and its instances' and uploads' bytes
 * (running sums kept by migration 0031's triggers). */
export const organizationUsage = (organization: string) =>
  sql<{ triples: string; bytes: string }>(
    `SELECT coalesce(sum(triples), 0) AS triples, coalesce(sum(bytes), 0) AS bytes FROM app_storage_usage WHERE organization = $1`,
    [organization],
  );

/** An uploaded file as stored now (an upload under the same name replaces it). */
export const storedUpload = (area: string, filename: string) =>
  sql<{ organization: string; size: string }>('SELECT organization, size FROM app_uploads WHERE area = $1 AND filename = $2', [area, filename]);

export const recordUpload = (area: string, filename: string, organization: string, size: number) =>
  sql(
    `INSERT INTO app_uploads (area, filename, organization, size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (area, filename) DO UPDATE SET organization = EXCLUDED.organization, size = EXCLUDED.size, stored_at = clock_timestamp()`,
    [area, filename, organization, size],
  );

/** Every stored graph's triples: what the embedded SPARQL store holds once loaded (migration 0031's sums). */
export const totalTriples = () => sql<{ triples: string }>('SELECT coalesce(sum(triples), 0) AS triples FROM app_storage_usage');

/** The triples a graph holds now (a write replaces them). */
export const graphTriples = (graphUri: string) =>
  sql<{ triple_count: number }>('SELECT triple_count FROM app_graphs WHERE graph_uri = $1', [graphUri]);

/** An instance and the graph of its triples, for one rdf_sync attempt. */
export const instanceForSync = (instanceId: string) =>
  sql<{ graph_uri: string; ntriples: string; rdf_sync_status: string }>(
    `SELECT i.graph_uri, g.ntriples, i.rdf_sync_status FROM app_instances i JOIN app_graphs g ON g.graph_uri = i.graph_uri
      WHERE i.instance_id = $1`,
    [instanceId],
  );

/** Instances waiting for the triplestore: failed for good, or pending after a failed attempt (whose next retry may
 * be many minutes away by then). Matches the partial index app_instances_sync_waiting_idx. */
const WAITING = `(rdf_sync_status = 'failed' OR (rdf_sync_status = 'pending' AND rdf_sync_error IS NOT NULL))`;

/** The oldest waiting instance and its graph: the resync sweep's probe of the triplestore. */
export const oldestWaitingInstance = () =>
  sql<{ instance_id: string; graph_uri: string; ntriples: string }>(
    `SELECT i.instance_id, i.graph_uri, g.ntriples FROM app_instances i JOIN app_graphs g ON g.graph_uri = i.graph_uri
      WHERE ${WAITING} ORDER BY i.id LIMIT 1`,
  );

export const markInstanceSync = (instanceId: string, status: string, error: string | null, now: Date) =>
  sql(
    `UPDATE app_instances SET rdf_sync_status = $2, rdf_sync_error = $3, rdf_sync_attempts = rdf_sync_attempts + 1,
       rdf_synced_at = CASE WHEN $2 = 'synced' THEN $4::timestamptz ELSE rdf_synced_at END
     WHERE instance_id = $1`,
    [instanceId, status, error, now],
  );

/** An instance whose rdf_sync attempts ran out, failed with `error`: only while it is still pending after a failed
 * attempt (a sync or a requeue since then leaves it as it is). Not an attempt of its own. */
export const failWaitingInstanceSync = (instanceId: string, error: string) =>
  sql(
    `UPDATE app_instances SET rdf_sync_status = 'failed', rdf_sync_error = $2
      WHERE instance_id = $1 AND rdf_sync_status = 'pending' AND rdf_sync_error IS NOT NULL`,
    [instanceId, error],
  );

/** Up to `limit` waiting instances set pending again (skipping rows another sweep holds). */
export const requeueWaitingInstances = (limit: number) =>
  sql<{ instance_id: string }>(
    `UPDATE app_instances SET rdf_sync_status = 'pending', rdf_sync_error = NULL WHERE id IN (
       SELECT id FROM app_instances WHERE ${WAITING} ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING instance_id`,
    [limit],
  );
