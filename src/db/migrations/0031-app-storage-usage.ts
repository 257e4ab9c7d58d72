import type { Migration } from './migration';

/**
 * Interface B's storage usage per organisation kept as running sums (issue 28): the storage caps read one row
 * instead of summing every graph, instance and upload of the organisation (and every graph for the overall cap)
 * each second. Those sums grew with the rows: after a few tens of thousands of instances they cost Postgres more
 * than the instances' own writes (about 160 µs a validation at 700 validations/s).
 *
 * Statement-level triggers with transition tables keep `app_storage_usage` exact on every path that writes the
 * three tables (a batch of instances adds once per organisation per statement, not once per row), rows sorted by
 * organisation so that concurrent statements lock them in one order. '' holds what has no organisation (schema
 * graphs and instances written before 0028): it counts toward the overall triple cap only. The per-organisation
 * indexes of 0028 served only the sums and go.
 */
export const appStorageUsage: Migration = {
  id: '0031-app-storage-usage',
  sql: `
CREATE TABLE app_storage_usage (
  organization text PRIMARY KEY,
  triples bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0
);
INSERT INTO app_storage_usage (organization, triples, bytes)
SELECT organization, sum(triples), sum(bytes) FROM (
  SELECT coalesce(organization, '') AS organization, triple_count::bigint AS triples, 0::bigint AS bytes FROM app_graphs
  UNION ALL SELECT coalesce(organization, ''), 0, stored_bytes FROM app_instances
  UNION ALL SELECT organization, 0, size FROM app_uploads) AS usage
GROUP BY organization;

CREATE FUNCTION app_storage_usage_add(delta_triples bigint[], delta_bytes bigint[], organizations text[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO app_storage_usage AS u (organization, triples, bytes)
  SELECT organization, sum(triples), sum(bytes) FROM unnest(organizations, delta_triples, delta_bytes) AS d(organization, triples, bytes)
  GROUP BY organization HAVING sum(triples) <> 0 OR sum(bytes) <> 0 ORDER BY organization
  ON CONFLICT (organization) DO UPDATE SET triples = u.triples + EXCLUDED.triples, bytes = u.bytes + EXCLUDED.bytes
$$;

CREATE FUNCTION app_graphs_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM app_storage_usage_add(array_agg(triple_count::bigint), array_agg(0::bigint), array_agg(coalesce(organization, ''))) FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM app_storage_usage_add(array_agg(-triple_count::bigint), array_agg(0::bigint), array_agg(coalesce(organization, ''))) FROM old_rows;
  ELSE
    PERFORM app_storage_usage_add(array_agg(t), array_agg(0::bigint), array_agg(o)) FROM (
      SELECT triple_count::bigint AS t, coalesce(organization, '') AS o FROM new_rows
      UNION ALL SELECT -triple_count::bigint, coalesce(organization, '') FROM old_rows) AS d;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION app_instances_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM app_storage_usage_add(array_agg(0::bigint), array_agg(stored_bytes), array_agg(coalesce(organization, ''))) FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM app_storage_usage_add(array_agg(0::bigint), array_agg(-stored_bytes), array_agg(coalesce(organization, ''))) FROM old_rows;
  ELSE
    PERFORM app_storage_usage_add(array_agg(0::bigint), array_agg(b), array_agg(o)) FROM (
      SELECT stored_bytes AS b, coalesce(organization, '') AS o FROM new_rows
      UNION ALL SELECT -stored_bytes, coalesce(organization, '') FROM old_rows) AS d;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION app_uploads_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM app_storage_usage_add(array_agg(0::bigint), array_agg(size), array_agg(organization)) FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM app_storage_usage_add(array_agg(0::bigint), array_agg(-size), array_agg(organization)) FROM old_rows;
  ELSE
    PERFORM app_storage_usage_add(array_agg(0::bigint), array_agg(b), array_agg(o)) FROM (
      SELECT size AS b, organization AS o FROM new_rows UNION ALL SELECT -size, organization FROM old_rows) AS d;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER app_graphs_usage_insert AFTER INSERT ON app_graphs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_graphs_usage();
CREATE TRIGGER app_graphs_usage_update AFTER UPDATE ON app_graphs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_graphs_usage();
CREATE TRIGGER app_graphs_usage_delete AFTER DELETE ON app_graphs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_graphs_usage();
CREATE TRIGGER app_instances_usage_insert AFTER INSERT ON app_instances REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_instances_usage();
CREATE TRIGGER app_instances_usage_update AFTER UPDATE ON app_instances REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_instances_usage();
CREATE TRIGGER app_instances_usage_delete AFTER DELETE ON app_instances REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_instances_usage();
CREATE TRIGGER app_uploads_usage_insert AFTER INSERT ON app_uploads REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_uploads_usage();
CREATE TRIGGER app_uploads_usage_update AFTER UPDATE ON app_uploads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_uploads_usage();
CREATE TRIGGER app_uploads_usage_delete AFTER DELETE ON app_uploads REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_uploads_usage();

DROP INDEX app_graphs_organization_idx;
DROP INDEX app_instances_organization_idx;
DROP INDEX app_uploads_organization_idx;
`,
};
