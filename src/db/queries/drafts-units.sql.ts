import { sql } from '../sql';
import type { CountRow } from './catalog.sql';
import { OWNED, PRED_OBJS_OF, SEEN, type EntryColumns } from './drafts.sql';

/** Units drafts: one Units with what its owner edits, the owner's list, insert and publish; and the label of a
 * Units a component names by ct_id. Viewer is always `$1`, with the same visibility as the other drafts. */

export interface UnitsDraftRow extends EntryColumns {
  enums: string[];
}

const UNITS_COLUMNS = `e.id, e.ct_id, e.label, e.description, e.status, e.enums, e.created_at, e.updated_at,
  p.ct_id AS project_ct_id, p.name AS project_name, p.is_public AS project_is_public,
  ${OWNED} AS owned, ${PRED_OBJS_OF('units_pred_objs', 'units_id')}`;
const UNITS_FROM = 'FROM units e JOIN projects p ON p.id = e.project_id';

/** A Units the viewer may read; `lock` takes its row for an update. */
export const unitsDraft = (viewerId: number, ctId: string, lock = false) =>
  sql<UnitsDraftRow>(`SELECT ${UNITS_COLUMNS} ${UNITS_FROM} WHERE e.ct_id = $2 AND ${SEEN("e.status <> 'draft'")}${lock ? ' FOR UPDATE OF e' : ''}`, [
    viewerId,
    ctId,
  ]);

/** The library's published Units (the reference Units every modeler may name) beside the viewer's own. */
const LISTED = `(${OWNED} OR (e.status = 'published' AND p.is_library))`;

/** The viewer's own Units (drafts first), then the library's, each by label. */
export const listedUnits = (viewerId: number, pageSize: number, offset: number) => ({
  count: sql<CountRow>(`SELECT count(*)::int AS n ${UNITS_FROM} WHERE ${LISTED}`, [viewerId]),
  page: sql<UnitsDraftRow>(
    `SELECT ${UNITS_COLUMNS} ${UNITS_FROM} WHERE ${LISTED}
      ORDER BY coalesce(${OWNED}, false) DESC, (e.status = 'draft') DESC, lower(e.label), e.ct_id LIMIT $2 OFFSET $3`,
    [viewerId, pageSize, offset],
  ),
});

export const insertUnits = (
  ctId: string,
  values: { label: string; description: string | null; enums: string[]; projectId: number; ownerId: number },
) =>
  sql<{ id: string }>('INSERT INTO units (ct_id, label, description, enums, project_id, owner_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id', [
    ctId,
    values.label,
    values.description,
    values.enums,
    values.projectId,
    values.ownerId,
  ]);

export const publishUnits = (id: number, now: Date) => sql(`UPDATE units SET status = 'published', updated_at = $2 WHERE id = $1`, [id, now]);

/** The labels of the Units with these ct_ids that the viewer (null: anyone) may read. */
export const unitsLabels = (viewerId: number | null, ctIds: string[]) =>
  sql<{ ct_id: string; label: string }>(`SELECT e.ct_id, e.label ${UNITS_FROM} WHERE e.ct_id = ANY($2::text[]) AND ${SEEN("e.status <> 'draft'")}`, [
    viewerId,
    ctIds,
  ]);
