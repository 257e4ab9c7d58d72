import type { Migration } from './migration';

/** Units drafts (`/dmgen/units/`): the Units of a quantified value, a vocabulary entry of its own rather than a leaf
 * of a model. A component that names a Units by ct_id stores its label as its unit text when it is written. */
export const units: Migration = {
  id: '0021-units',
  sql: `
CREATE TABLE units (
  id bigserial PRIMARY KEY,
  ct_id text NOT NULL UNIQUE,
  label text NOT NULL,
  description text,
  -- Alternative symbols of the same unit, in order.
  enums text[] NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
  project_id bigint NOT NULL REFERENCES projects(id),
  owner_id bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX units_project_idx ON units (project_id);
CREATE INDEX units_owner_idx ON units (owner_id);

CREATE TABLE units_pred_objs (
  units_id bigint NOT NULL REFERENCES units(id) ON DELETE CASCADE,
  pred_obj_id bigint NOT NULL REFERENCES pred_objs(id),
  PRIMARY KEY (units_id, pred_obj_id)
);
`,
};
