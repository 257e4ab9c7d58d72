import { sql } from '../sql';

/** What the package code reads and writes on a data model row beyond the entity's columns. */

export interface ModelPackageRow {
  published: boolean;
  imported: boolean;
  generated: boolean;
  package_path: string | null;
}

export const modelPackageRow = (dmCtId: string) =>
  sql<ModelPackageRow>(`SELECT published, imported, generated, package_path FROM data_models WHERE ct_id = $1`, [dmCtId]);

/** An imported model is served from its stored package: marked generated at import, never regenerated. */
export const markImported = (dmCtId: string, packagePath: string, now: Date) =>
  sql(`UPDATE data_models SET imported = true, generated = true, package_path = $2, updated_at = $3 WHERE ct_id = $1`, [dmCtId, packagePath, now]);
