import type { Migration } from './migration';

/** Interface B: organisation keys, validated instances and the durable copy of every RDF graph the application
 * serves (the embedded SPARQL store is rebuilt from app_graphs). */
export const app: Migration = {
  id: '0004-app',
  sql: `
CREATE TABLE app_api_keys (
  id bigserial PRIMARY KEY,
  organization text NOT NULL CHECK (length(organization) BETWEEN 1 AND 200),
  contact_email text NOT NULL CHECK (length(contact_email) BETWEEN 3 AND 254),
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  request_count bigint NOT NULL DEFAULT 0,
  last_used timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  deactivated_at timestamptz,
  replaces_id bigint REFERENCES app_api_keys(id)
);

CREATE SEQUENCE app_graph_revision;

-- One row per named graph; revision grows on every write so a process can load only what changed.
CREATE TABLE app_graphs (
  graph_uri text PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('instance', 'schema')),
  ntriples text NOT NULL,
  triple_count integer NOT NULL,
  revision bigint NOT NULL DEFAULT nextval('app_graph_revision'),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX app_graphs_revision_idx ON app_graphs (revision);

CREATE TABLE app_instances (
  id bigserial PRIMARY KEY,
  instance_id text NOT NULL UNIQUE,
  dm_ct_id text NOT NULL,
  dm_label text NOT NULL,
  validation_status text NOT NULL CHECK (validation_status IN ('valid', 'valid_with_ev')),
  storage_type text NOT NULL DEFAULT 'generic',
  original_xml text NOT NULL,
  corrected_xml text NOT NULL,
  validation_errors jsonb,
  auto_corrected_fields jsonb NOT NULL,
  corrections jsonb NOT NULL,
  json_rendering jsonb NOT NULL,
  graph_uri text NOT NULL REFERENCES app_graphs(graph_uri),
  rdf_sync_status text NOT NULL CHECK (rdf_sync_status IN ('disabled', 'pending', 'synced', 'failed')),
  rdf_sync_attempts integer NOT NULL DEFAULT 0,
  rdf_sync_error text,
  rdf_synced_at timestamptz,
  api_key_id bigint REFERENCES app_api_keys(id),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX app_instances_dm_idx ON app_instances (dm_ct_id, created_at DESC);
CREATE INDEX app_instances_failed_idx ON app_instances (id) WHERE rdf_sync_status = 'failed';
`,
};
