import { sql } from '../sql';

/** The public library as the DCAT catalog lists it: every published model of a public project (anyone may read it;
 * no draft, whoever owns it), with its current published schema's sha256 and size when one is recorded. */

export interface DcatModelRow {
  ct_id: string;
  title: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
  author: string | null;
  dublin_core: Record<string, string> | null;
  project_name: string;
  schema_sha256: string | null;
  schema_size: number | null;
}

export const publicModelsForDcat = () =>
  sql<DcatModelRow>(
    `SELECT dm.ct_id, dm.title, dm.description, dm.created_at, dm.updated_at, nullif(u.name, '') AS author, dm.dublin_core,
            p.name AS project_name, ps.sha256 AS schema_sha256, ps.size AS schema_size
       FROM data_models dm
       JOIN projects p ON p.id = dm.project_id
       LEFT JOIN users u ON u.id = dm.owner_id
       LEFT JOIN published_schemas ps ON ps.dm_ct_id = dm.ct_id AND ps.archived_at IS NULL
      WHERE dm.published AND p.is_public
      ORDER BY dm.created_at, dm.ct_id`,
    [],
  );
