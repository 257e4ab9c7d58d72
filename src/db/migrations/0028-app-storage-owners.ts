import type { Migration } from './migration';

/** Interface B storage per organisation (issue 30): each graph and each stored instance names the organisation
 * whose key wrote it, an instance records the bytes it stores (original, corrected and JSON texts), and each
 * uploaded file (zip/, dmlib/) its organisation and size, so the triple caps (APP_MAX_TRIPLES,
 * APP_MAX_TRIPLES_PER_ORGANIZATION) and the storage quota (APP_STORAGE_QUOTA_BYTES) are sums over an index. Rows
 * written before know their organisation through their key; schema graphs and files stored before have none and
 * count toward the overall cap only. */
export const appStorageOwners: Migration = {
  id: '0028-app-storage-owners',
  sql: `
ALTER TABLE app_graphs ADD COLUMN organization text;
ALTER TABLE app_instances ADD COLUMN organization text, ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0;
UPDATE app_instances i SET organization = k.organization,
    stored_bytes = octet_length(i.original_xml) + octet_length(i.corrected_xml) + octet_length(i.json_rendering::text)
  FROM app_api_keys k WHERE k.id = i.api_key_id;
UPDATE app_instances SET stored_bytes = octet_length(original_xml) + octet_length(corrected_xml) + octet_length(json_rendering::text)
  WHERE api_key_id IS NULL;
UPDATE app_graphs g SET organization = i.organization FROM app_instances i WHERE i.graph_uri = g.graph_uri;
CREATE INDEX app_graphs_organization_idx ON app_graphs (organization) INCLUDE (triple_count) WHERE organization IS NOT NULL;
CREATE INDEX app_instances_organization_idx ON app_instances (organization) INCLUDE (stored_bytes) WHERE organization IS NOT NULL;
CREATE TABLE app_uploads (
  area text NOT NULL,
  filename text NOT NULL,
  organization text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  stored_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (area, filename)
);
CREATE INDEX app_uploads_organization_idx ON app_uploads (organization) INCLUDE (size);
`,
};
