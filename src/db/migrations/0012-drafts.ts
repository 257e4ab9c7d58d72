import type { Migration } from './migration';

/** The drafts API of modeling tools: enumerations and type-specific fields on components, Dublin Core fields on
 * models, and semantic links (namespaces, predicates, predicate-object pairs) attached to components and
 * clusters, which the package's XSD annotations and RDF carry. */
export const drafts: Migration = {
  id: '0012-drafts',
  sql: `
ALTER TABLE components ADD COLUMN enums text[] NOT NULL DEFAULT '{}';
ALTER TABLE components ADD COLUMN enum_descr jsonb NOT NULL DEFAULT '{}'::jsonb;
-- Type-specific fields (allow_* of temporals, reference_ranges, min/max, …) as the parser typed them.
ALTER TABLE components ADD COLUMN details jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE data_models ADD COLUMN dublin_core jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE TABLE namespaces (
  id bigserial PRIMARY KEY,
  abbrev text NOT NULL UNIQUE,
  uri text NOT NULL,
  owner_id bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO namespaces (abbrev, uri) VALUES
  ('rdf', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'),
  ('rdfs', 'http://www.w3.org/2000/01/rdf-schema#'),
  ('owl', 'http://www.w3.org/2002/07/owl#'),
  ('skos', 'http://www.w3.org/2004/02/skos/core#'),
  ('dct', 'http://purl.org/dc/terms/'),
  ('schema', 'https://schema.org/'),
  ('sdc4', 'https://semanticdatacharter.com/ns/sdc4/');

CREATE TABLE predicates (
  id bigserial PRIMARY KEY,
  namespace_id bigint NOT NULL REFERENCES namespaces(id),
  class_name text NOT NULL,
  owner_id bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (namespace_id, class_name)
);
INSERT INTO predicates (namespace_id, class_name)
SELECT n.id, v.class_name FROM (VALUES ('rdfs', 'seeAlso'), ('rdfs', 'isDefinedBy'), ('owl', 'sameAs'),
  ('skos', 'exactMatch'), ('skos', 'closeMatch'), ('skos', 'broadMatch'), ('dct', 'subject')) AS v (abbrev, class_name)
JOIN namespaces n ON n.abbrev = v.abbrev;

CREATE TABLE pred_objs (
  id bigserial PRIMARY KEY,
  predicate_id bigint NOT NULL REFERENCES predicates(id),
  object_uri text NOT NULL,
  po_name text,
  project_id bigint NOT NULL REFERENCES projects(id),
  owner_id bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pred_objs_project_idx ON pred_objs (project_id);

CREATE TABLE component_pred_objs (
  component_id bigint NOT NULL REFERENCES components(id) ON DELETE CASCADE,
  pred_obj_id bigint NOT NULL REFERENCES pred_objs(id),
  PRIMARY KEY (component_id, pred_obj_id)
);
CREATE TABLE cluster_pred_objs (
  cluster_id bigint NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  pred_obj_id bigint NOT NULL REFERENCES pred_objs(id),
  PRIMARY KEY (cluster_id, pred_obj_id)
);
`,
};
