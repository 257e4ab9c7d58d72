import type { Migration } from './migration';

export const jobs: Migration = {
  id: '0003-jobs',
  sql: `
CREATE TABLE data_sources (
  id bigserial PRIMARY KEY,
  ct_id text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES users(id),
  filename text NOT NULL,
  content_type text,
  size_bytes bigint NOT NULL,
  content bytea,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  ct_id text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('assemble', 'upload', 'generate_package', 'generate_app')),
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  step text,
  user_id bigint NOT NULL REFERENCES users(id),
  api_key_id bigint REFERENCES api_keys(id),
  request jsonb NOT NULL DEFAULT '{}'::jsonb,
  result jsonb,
  error text,
  data_source_ct_id text,
  dm_ct_id text,
  task_id text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX jobs_user_idx ON jobs (user_id, created_at DESC);
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_job_fk FOREIGN KEY (job_id) REFERENCES jobs(id);
`,
};
