import type { Named } from './auth.sql';

/** One validated instance as stored: its row, its graph, and whether its triplestore sync is queued. */
export interface StoredInstance {
  instanceId: string;
  dmCtId: string;
  dmLabel: string;
  validationStatus: string;
  storageType: string;
  originalXml: string;
  /** null: the original is the corrected text (sent once). */
  correctedXml: string | null;
  /** JSON texts. */
  validationErrors: string | null;
  autoCorrectedFields: string;
  corrections: string;
  jsonText: string;
  graphUri: string;
  rdfSyncStatus: string;
  apiKeyId: number;
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
  ['jsonText', 'jsonb'],
  ['graphUri', 'text'],
  ['rdfSyncStatus', 'text'],
  ['apiKeyId', 'bigint'],
  ['ntriples', 'text'],
  ['tripleCount', 'int'],
] as const satisfies ReadonlyArray<readonly [keyof StoredInstance, string]>;

/** The most rows one statement writes; a larger batch is written by several, in one transaction. */
export const MAX_ROWS = 32;

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
    auto_corrected_fields, corrections, json_rendering, graph_uri, rdf_sync_status, api_key_id, ntriples, triple_count) AS (
  VALUES ${values.join(',\n    ')}),
graph AS (
  INSERT INTO app_graphs (graph_uri, source, ntriples, triple_count)
  SELECT graph_uri, 'instance', ntriples, triple_count FROM input WHERE instance_id IS NOT NULL
  ON CONFLICT (graph_uri) DO UPDATE SET ntriples = EXCLUDED.ntriples, triple_count = EXCLUDED.triple_count,
    revision = nextval('app_graph_revision'), updated_at = clock_timestamp()
  RETURNING graph_uri)
INSERT INTO app_instances (instance_id, dm_ct_id, dm_label, validation_status, storage_type, original_xml, corrected_xml,
  validation_errors, auto_corrected_fields, corrections, json_rendering, graph_uri, rdf_sync_status, api_key_id)
SELECT i.instance_id, i.dm_ct_id, i.dm_label, i.validation_status, i.storage_type, i.original_xml,
  COALESCE(i.corrected_xml, i.original_xml), i.validation_errors, i.auto_corrected_fields, i.corrections, i.json_rendering,
  graph.graph_uri, i.rdf_sync_status, i.api_key_id
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
