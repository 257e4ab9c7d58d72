import type { Migration } from './migration';

/** Projects as the studio's clients see them: a ct_id, public or private, one default project per user (filled
 * for existing users here, created with each new user after). Also the hourly counters of catalog reads. */
export const projects: Migration = {
  id: '0010-projects',
  sql: `
ALTER TABLE projects ADD COLUMN ct_id text;
ALTER TABLE projects ADD COLUMN is_public boolean NOT NULL DEFAULT true;
ALTER TABLE projects ADD COLUMN is_default boolean NOT NULL DEFAULT false;
UPDATE projects SET ct_id = 'p' || substr(md5(random()::text || clock_timestamp()::text || id::text), 1, 23);
ALTER TABLE projects ALTER COLUMN ct_id SET NOT NULL;
ALTER TABLE projects ADD CONSTRAINT projects_ct_id_key UNIQUE (ct_id);
CREATE UNIQUE INDEX projects_one_default ON projects (owner_id) WHERE is_default;
CREATE INDEX projects_owner_idx ON projects (owner_id);

INSERT INTO projects (ct_id, name, owner_id, is_public, is_default)
SELECT 'p' || substr(md5(random()::text || clock_timestamp()::text || u.id::text), 1, 23),
       split_part(u.email, '@', 1) || '-' || u.id, u.id, true, true
  FROM users u
ON CONFLICT DO NOTHING;

-- One row per caller bucket (an address or a user) and hour; old windows are deleted as new ones open.
CREATE TABLE read_rate_limits (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX read_rate_limits_window_idx ON read_rate_limits (window_start);
`,
};
