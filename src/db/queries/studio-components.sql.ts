import { componentPage } from './catalog.sql';

/** The studio's `/dmgen/components/` lists every reusable entry a modeler may pick, not only leaf components:
 * clusters (`Cluster`) and Units (`Units`) share the page, with the columns a component row has. */
const STUDIO_ENTRIES = `(
  SELECT ct_id, label, description, data_type, units, status, successor_ct_id, contextual_slot, owner_id, project_id, created_at, updated_at
    FROM components
  UNION ALL
  SELECT ct_id, label, description, 'Cluster', NULL, status, successor_ct_id, NULL, owner_id, project_id, created_at, updated_at
    FROM clusters
  UNION ALL
  SELECT ct_id, label, description, 'Units', NULL, status, NULL, NULL, owner_id, project_id, created_at, updated_at
    FROM units)`;

export const studioComponents = componentPage(STUDIO_ENTRIES);
