import type { Migration } from './migration';

/** Job requests and results as their tasks declare them (src/jobs/<kind>.task.ts): camelCase, read by GraphQL as
 * they are and rendered in snake_case by REST. Renames the keys of the rows written before: a request's top-level
 * keys (an assembly's parsed request is camelCase already; the raw body of older assembly jobs stays as sent), a
 * result's keys and those of an upload's columns; a generation's result gains the application fields (null) that
 * a package's lacked. */
export const jobPayloadsCamelCase: Migration = {
  id: '0030-job-payloads-camel-case',
  sql: `
CREATE FUNCTION pg_temp.sdc_camel(key text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(CASE WHEN n = 1 THEN part ELSE initcap(part) END, '' ORDER BY n)
    FROM unnest(string_to_array(key, '_')) WITH ORDINALITY AS t(part, n)
$$;
CREATE FUNCTION pg_temp.sdc_camel_keys(value jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(jsonb_object_agg(pg_temp.sdc_camel(key), v), '{}'::jsonb) FROM jsonb_each(value) AS e(key, v)
$$;
UPDATE jobs SET request = pg_temp.sdc_camel_keys(request) WHERE jsonb_typeof(request) = 'object';
UPDATE jobs SET result = pg_temp.sdc_camel_keys(result) WHERE jsonb_typeof(result) = 'object';
UPDATE jobs SET result = jsonb_set(result, '{columns}', (
    SELECT COALESCE(jsonb_agg(pg_temp.sdc_camel_keys(c) ORDER BY n), '[]'::jsonb)
      FROM jsonb_array_elements(result->'columns') WITH ORDINALITY AS t(c, n)))
  WHERE kind = 'upload' AND jsonb_typeof(result->'columns') = 'array';
UPDATE jobs SET result = '{"profile": null, "appName": null, "appUrl": null}'::jsonb || result
  WHERE kind IN ('generate_package', 'generate_app') AND jsonb_typeof(result) = 'object';
`,
};
