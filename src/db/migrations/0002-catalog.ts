import type { Migration } from './migration';

export const catalog: Migration = {
  id: '0002-catalog',
  sql: `
CREATE TABLE projects (
  id bigserial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  owner_id bigint REFERENCES users(id),
  is_library boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX projects_one_library ON projects (is_library) WHERE is_library;
INSERT INTO projects (name, is_library) VALUES ('library', true);

-- mint_key makes minting idempotent: a retried pipeline step finds what it minted before.
CREATE TABLE components (
  id bigserial PRIMARY KEY,
  ct_id text NOT NULL UNIQUE,
  label text NOT NULL,
  data_type text NOT NULL,
  description text,
  units text,
  status text NOT NULL CHECK (status IN ('draft', 'published', 'retired')),
  successor_ct_id text REFERENCES components(ct_id),
  project_id bigint NOT NULL REFERENCES projects(id),
  owner_id bigint REFERENCES users(id),
  mint_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX components_label_idx ON components (lower(label));

CREATE TABLE clusters (
  id bigserial PRIMARY KEY,
  ct_id text NOT NULL UNIQUE,
  label text NOT NULL,
  description text,
  status text NOT NULL CHECK (status IN ('draft', 'published', 'retired')),
  successor_ct_id text REFERENCES clusters(ct_id),
  project_id bigint NOT NULL REFERENCES projects(id),
  owner_id bigint REFERENCES users(id),
  mint_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE cluster_children (
  cluster_id bigint NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  position integer NOT NULL,
  component_id bigint REFERENCES components(id),
  child_cluster_id bigint REFERENCES clusters(id),
  PRIMARY KEY (cluster_id, position),
  CHECK ((component_id IS NULL) <> (child_cluster_id IS NULL))
);

CREATE TABLE data_models (
  id bigserial PRIMARY KEY,
  ct_id text NOT NULL UNIQUE,
  title text NOT NULL,
  description text,
  root_cluster_id bigint NOT NULL REFERENCES clusters(id),
  contextual jsonb NOT NULL DEFAULT '{}'::jsonb,
  published boolean NOT NULL DEFAULT false,
  generated boolean NOT NULL DEFAULT false,
  package_path text,
  app_path text,
  project_id bigint NOT NULL REFERENCES projects(id),
  owner_id bigint REFERENCES users(id),
  mint_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX data_models_title_idx ON data_models (lower(title));
`,
};
