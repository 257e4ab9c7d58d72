import { sql } from '../sql';
import type { ContextualEntry } from '../../packages/contextual-library';

/** The contextual library and the contextual components a model references (`data_models.contextual`). */

export interface ContextualRow {
  slot: string;
  ct_id: string;
  label: string;
  description: string | null;
  data_type: string;
}

/** The components a model's `contextual` object names, with the slot each fills. */
export const modelContextual = (dmCtId: string) =>
  sql<ContextualRow>(
    `SELECT e.key AS slot, c.ct_id, c.label, c.description, c.data_type
       FROM data_models dm
       CROSS JOIN LATERAL jsonb_each(dm.contextual) e
       JOIN components c ON c.ct_id = e.value->>'ct_id'
      WHERE dm.ct_id = $1 AND jsonb_typeof(e.value) = 'object'`,
    [dmCtId],
  );

/** Inserts the library entries that are missing (same ct_id: left as it is); returns the ct_ids it created. */
export const installContextual = (entries: Array<ContextualEntry & { dataType: string }>, projectId: number) =>
  sql<{ ct_id: string }>(
    `INSERT INTO components (ct_id, label, data_type, description, status, project_id, contextual_slot)
     SELECT v.ct_id, v.label, v.data_type, v.description, 'published', $6, v.slot
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v (ct_id, label, data_type, description, slot)
     ON CONFLICT (ct_id) DO NOTHING
     RETURNING ct_id`,
    [
      entries.map((e) => e.ctId),
      entries.map((e) => e.label),
      entries.map((e) => e.dataType),
      entries.map((e) => e.description),
      entries.map((e) => e.slot),
      projectId,
    ],
  );

/** The published library entry of each slot. */
export const contextualLibrary = () =>
  sql<ContextualRow>(
    `SELECT contextual_slot AS slot, ct_id, label, description, data_type
       FROM components
      WHERE contextual_slot IS NOT NULL AND status = 'published'
      ORDER BY array_position(ARRAY['audit','attestation','party','subject','provider','participation','protocol','workflow','acs'], contextual_slot), id`,
  );
