import type { DataSource } from 'typeorm';
import { publicModelsForDcat } from '../db/queries/dcat.sql';
import { query } from '../db/sql';
import type { DcatCatalogView } from '../presenters/dcat.presenter';

/** The DCAT 3 catalog of the public model library (`/api/v1/catalog/dcat.ttl`): what the DCAT exporters compute per
 * model, read once for every published model of a public project. */
export class DcatService {
  constructor(private readonly db: DataSource) {}

  async catalog(): Promise<DcatCatalogView> {
    const rows = await query(this.db, publicModelsForDcat());
    return {
      models: rows.map((row) => {
        const dc = row.dublin_core ?? {};
        return {
          ctId: row.ct_id,
          title: row.title,
          description: row.description,
          created: row.created_at,
          modified: row.updated_at,
          author: row.author,
          projectName: row.project_name,
          language: dc.language ?? 'en-US',
          subject: dc.subject ?? null,
          publisher: dc.publisher ?? null,
          rights: dc.rights ?? null,
          source: dc.source ?? null,
          schema: row.schema_sha256 ? { sha256: row.schema_sha256, size: Number(row.schema_size) } : null,
        };
      }),
    };
  }
}
