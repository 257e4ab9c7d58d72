import { sql } from '../sql';
import type { CatalogStatus } from '../../entities/catalog-entry';
import type { CountRow } from './catalog.sql';

/** The drafts API's raw SQL: one entry with what its owner edits, the owner's lists, partial updates, the semantic
 * links of an entry, and the vocabulary (namespaces, predicates, predicate-object pairs). Viewer is always `$1`. */

/** Who may read an entry aliased `e` in project `p`: its owner and the project's owner, anyone once published in
 * a public project. `owned` says who may edit it. */
export const SEEN = (published: string) => `((${published} AND p.is_public) OR e.owner_id = $1::bigint OR p.owner_id = $1::bigint)`;
export const OWNED = `(e.owner_id = $1::bigint OR p.owner_id = $1::bigint)`;

/** The tables that link an entry to its predicate-object pairs. */
export type LinkTable = 'component_pred_objs' | 'cluster_pred_objs' | 'units_pred_objs';

export const PRED_OBJS_OF = (link: LinkTable, column: string) =>
  `ARRAY(SELECT l.pred_obj_id FROM ${link} l WHERE l.${column} = e.id ORDER BY l.pred_obj_id)::bigint[] AS pred_obj`;

export interface EntryColumns {
  id: string;
  ct_id: string;
  label: string;
  description: string | null;
  status: CatalogStatus;
  project_ct_id: string;
  project_name: string;
  project_is_public: boolean;
  owned: boolean;
  pred_obj: string[];
  created_at: Date;
  updated_at: Date;
}

export interface ComponentDraftRow extends EntryColumns {
  data_type: string;
  units: string | null;
  enums: string[];
  enum_descr: Record<string, string>;
  details: Record<string, unknown>;
}

const COMPONENT_COLUMNS = `e.id, e.ct_id, e.label, e.description, e.status, e.data_type, e.units, e.enums, e.enum_descr, e.details,
  e.created_at, e.updated_at, p.ct_id AS project_ct_id, p.name AS project_name, p.is_public AS project_is_public,
  ${OWNED} AS owned, ${PRED_OBJS_OF('component_pred_objs', 'component_id')}`;

/** A component of `dataType` the viewer may read; `lock` takes its row for an update. */
export const componentDraft = (viewerId: number, dataType: string, ctId: string, lock = false) =>
  sql<ComponentDraftRow>(
    `SELECT ${COMPONENT_COLUMNS} FROM components e JOIN projects p ON p.id = e.project_id
      WHERE e.ct_id = $2 AND e.data_type = $3 AND ${SEEN("e.status <> 'draft'")}${lock ? ' FOR UPDATE OF e' : ''}`,
    [viewerId, ctId, dataType],
  );

/** The viewer's own components of one type, drafts first, then by label. */
export const ownComponents = (viewerId: number, dataType: string, pageSize: number, offset: number) => {
  const from = `FROM components e JOIN projects p ON p.id = e.project_id WHERE e.data_type = $2 AND ${OWNED}`;
  return {
    count: sql<CountRow>(`SELECT count(*)::int AS n ${from}`, [viewerId, dataType]),
    page: sql<ComponentDraftRow>(
      `SELECT ${COMPONENT_COLUMNS} ${from} ORDER BY (e.status = 'draft') DESC, lower(e.label), e.ct_id LIMIT $3 OFFSET $4`,
      [viewerId, dataType, pageSize, offset],
    ),
  };
};

export interface ClusterDraftRow extends EntryColumns {
  /** In child order: `{kind, ct_id, data_type}` (data_type null for a cluster). */
  children: Array<{ kind: 'component' | 'cluster'; ct_id: string; data_type: string | null }>;
}

const CLUSTER_COLUMNS = `e.id, e.ct_id, e.label, e.description, e.status, e.created_at, e.updated_at,
  p.ct_id AS project_ct_id, p.name AS project_name, p.is_public AS project_is_public, ${OWNED} AS owned,
  ${PRED_OBJS_OF('cluster_pred_objs', 'cluster_id')},
  (SELECT coalesce(jsonb_agg(jsonb_build_object(
            'kind', CASE WHEN cc.component_id IS NULL THEN 'cluster' ELSE 'component' END,
            'ct_id', coalesce(co.ct_id, cl.ct_id), 'data_type', co.data_type) ORDER BY cc.position), '[]'::jsonb)
     FROM cluster_children cc LEFT JOIN components co ON co.id = cc.component_id LEFT JOIN clusters cl ON cl.id = cc.child_cluster_id
    WHERE cc.cluster_id = e.id) AS children`;

export const clusterDraft = (viewerId: number, ctId: string, lock = false) =>
  sql<ClusterDraftRow>(
    `SELECT ${CLUSTER_COLUMNS} FROM clusters e JOIN projects p ON p.id = e.project_id
      WHERE e.ct_id = $2 AND ${SEEN("e.status <> 'draft'")}${lock ? ' FOR UPDATE OF e' : ''}`,
    [viewerId, ctId],
  );

export const ownClusters = (viewerId: number, pageSize: number, offset: number) => {
  const from = `FROM clusters e JOIN projects p ON p.id = e.project_id WHERE ${OWNED}`;
  return {
    count: sql<CountRow>(`SELECT count(*)::int AS n ${from}`, [viewerId]),
    page: sql<ClusterDraftRow>(`SELECT ${CLUSTER_COLUMNS} ${from} ORDER BY (e.status = 'draft') DESC, lower(e.label), e.ct_id LIMIT $2 OFFSET $3`, [
      viewerId,
      pageSize,
      offset,
    ]),
  };
};

export interface ModelDraftRow {
  id: string;
  ct_id: string;
  title: string;
  description: string | null;
  published: boolean;
  generated: boolean;
  dublin_core: Record<string, string>;
  root_cluster_ct_id: string;
  project_ct_id: string;
  project_name: string;
  owned: boolean;
  created_at: Date;
  updated_at: Date;
}

const MODEL_COLUMNS = `e.id, e.ct_id, e.title, e.description, e.published, e.generated, e.dublin_core, e.created_at, e.updated_at,
  r.ct_id AS root_cluster_ct_id, p.ct_id AS project_ct_id, p.name AS project_name, ${OWNED} AS owned`;
const MODEL_FROM = `FROM data_models e JOIN projects p ON p.id = e.project_id JOIN clusters r ON r.id = e.root_cluster_id`;

export const modelDraft = (viewerId: number, ctId: string, lock = false) =>
  sql<ModelDraftRow>(`SELECT ${MODEL_COLUMNS} ${MODEL_FROM} WHERE e.ct_id = $2 AND ${SEEN('e.published')}${lock ? ' FOR UPDATE OF e' : ''}`, [
    viewerId,
    ctId,
  ]);

export const ownModels = (viewerId: number, pageSize: number, offset: number) => ({
  count: sql<CountRow>(`SELECT count(*)::int AS n FROM data_models e JOIN projects p ON p.id = e.project_id WHERE ${OWNED}`, [viewerId]),
  page: sql<ModelDraftRow>(
    `SELECT ${MODEL_COLUMNS} ${MODEL_FROM} WHERE ${OWNED} ORDER BY e.published, e.updated_at DESC, e.id DESC LIMIT $2 OFFSET $3`,
    [viewerId, pageSize, offset],
  ),
});

/** Sets the named columns of one row (values already typed; jsonb given as JSON text) and its updated_at. */
export function updateEntry(table: 'components' | 'clusters' | 'data_models' | 'units', id: number, values: Record<string, unknown>, now: Date) {
  const columns = Object.keys(values);
  const sets = columns.map((column, i) => `${column} = $${i + 3}`);
  return sql(`UPDATE ${table} SET ${['updated_at = $2', ...sets].join(', ')} WHERE id = $1`, [id, now, ...Object.values(values)]);
}

const LINK_COLUMN: Record<LinkTable, string> = { component_pred_objs: 'component_id', cluster_pred_objs: 'cluster_id', units_pred_objs: 'units_id' };

export const clearPredObjs = (table: LinkTable, entryId: number) => sql(`DELETE FROM ${table} WHERE ${LINK_COLUMN[table]} = $1`, [entryId]);

export const insertPredObjs = (table: LinkTable, entryId: number, predObjIds: number[]) =>
  sql(`INSERT INTO ${table} (${LINK_COLUMN[table]}, pred_obj_id) SELECT $1, unnest($2::bigint[])`, [entryId, predObjIds]);

/** The ids among `ids` the viewer may attach: pairs of the viewer's own projects or of public ones. */
export const usablePredObjs = (viewerId: number, ids: number[]) =>
  sql<{ id: string }>(
    `SELECT po.id FROM pred_objs po JOIN projects p ON p.id = po.project_id WHERE po.id = ANY($2::bigint[]) AND (p.is_public OR p.owner_id = $1)`,
    [viewerId, ids],
  );

export interface ChildRow {
  id: string;
  ct_id: string;
  data_type: string | null;
  status: CatalogStatus;
}

/** Components (or clusters) a viewer may place in a cluster: own entries and published ones of public projects. */
export const usableChildren = (viewerId: number, table: 'components' | 'clusters', ctIds: string[]) =>
  sql<ChildRow>(
    `SELECT e.id, e.ct_id, ${table === 'components' ? 'e.data_type' : 'NULL::text AS data_type'}, e.status
       FROM ${table} e JOIN projects p ON p.id = e.project_id
      WHERE e.ct_id = ANY($2::text[]) AND e.status <> 'retired' AND ${SEEN("e.status <> 'draft'")}`,
    [viewerId, ctIds],
  );

export const clusterCtId = (id: number) => sql<{ ct_id: string }>('SELECT ct_id FROM clusters WHERE id = $1', [id]);

export const ownProject = (viewerId: number, ctId: string) =>
  sql<{ id: string }>('SELECT id FROM projects WHERE ct_id = $2 AND owner_id = $1', [viewerId, ctId]);

export interface NamespaceRow {
  id: string;
  abbrev: string;
  uri: string;
}

/** The namespaces a user sees: the shared ones (owner null: seeded, well-known) and their own. */
const VISIBLE_NAMESPACES = 'FROM namespaces WHERE owner_id IS NULL OR owner_id = $1';

export const namespacesPage = (viewerId: number, pageSize: number, offset: number) => ({
  count: sql<CountRow>(`SELECT count(*)::int AS n ${VISIBLE_NAMESPACES}`, [viewerId]),
  page: sql<NamespaceRow>(`SELECT id, abbrev, uri ${VISIBLE_NAMESPACES} ORDER BY id LIMIT $2 OFFSET $3`, [viewerId, pageSize, offset]),
});

/** A prefix is unique among the shared namespaces and within each owner's (migration 0027). */
export const insertNamespace = (abbrev: string, uri: string, ownerId: number | null) =>
  sql<NamespaceRow>('INSERT INTO namespaces (abbrev, uri, owner_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id, abbrev, uri', [
    abbrev,
    uri,
    ownerId,
  ]);

/** The namespace an id or a prefix names for `viewerId`: their own, else the shared one (never another user's). */
export const namespaceFor = (viewerId: number, key: number | string) =>
  sql<NamespaceRow>(
    `SELECT id, abbrev, uri FROM namespaces WHERE (owner_id IS NULL OR owner_id = $1) AND ${typeof key === 'number' ? 'id = $2' : 'abbrev = $2'}
      ORDER BY owner_id IS NULL LIMIT 1`,
    [viewerId, key],
  );

/** The namespace `ownerId` holds under a prefix (null: the shared one). */
export const ownNamespace = (ownerId: number | null, abbrev: string) =>
  sql<NamespaceRow>('SELECT id, abbrev, uri FROM namespaces WHERE owner_id IS NOT DISTINCT FROM $1 AND abbrev = $2', [ownerId, abbrev]);

export interface PredicateRow {
  id: string;
  ns_prefix: string;
  ns_uri: string;
  class_name: string;
}

const PREDICATES = `SELECT pr.id, n.abbrev AS ns_prefix, n.uri AS ns_uri, pr.class_name FROM predicates pr JOIN namespaces n ON n.id = pr.namespace_id`;

export const predicatesPage = (pageSize: number, offset: number) => ({
  count: sql<CountRow>('SELECT count(*)::int AS n FROM predicates'),
  page: sql<PredicateRow>(`${PREDICATES} ORDER BY pr.id LIMIT $1 OFFSET $2`, [pageSize, offset]),
});

/** The predicate (new or already there) for a namespace and class name. */
export const upsertPredicate = (namespaceId: number, className: string, ownerId: number) =>
  sql<{ id: string; created: boolean }>(
    `WITH inserted AS (INSERT INTO predicates (namespace_id, class_name, owner_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id)
     SELECT id, true AS created FROM inserted UNION ALL SELECT id, false FROM predicates WHERE namespace_id = $1 AND class_name = $2 LIMIT 1`,
    [namespaceId, className, ownerId],
  );

export const predicateById = (id: number) => sql<PredicateRow>(`${PREDICATES} WHERE pr.id = $1`, [id]);

export interface PredObjRow {
  id: string;
  predicate_id: string;
  predicate: string;
  object_uri: string;
  po_name: string | null;
  project_ct_id: string;
}

const PRED_OBJS = `SELECT po.id, po.predicate_id, n.abbrev || ':' || pr.class_name AS predicate, po.object_uri, po.po_name, p.ct_id AS project_ct_id
  FROM pred_objs po JOIN predicates pr ON pr.id = po.predicate_id JOIN namespaces n ON n.id = pr.namespace_id JOIN projects p ON p.id = po.project_id`;

/** The pairs of the viewer's own projects (the enrichment scripts filter by project ct_id themselves). */
export const ownPredObjsPage = (viewerId: number, pageSize: number, offset: number) => ({
  count: sql<CountRow>('SELECT count(*)::int AS n FROM pred_objs po JOIN projects p ON p.id = po.project_id WHERE p.owner_id = $1', [viewerId]),
  page: sql<PredObjRow>(`${PRED_OBJS} WHERE p.owner_id = $1 ORDER BY po.id LIMIT $2 OFFSET $3`, [viewerId, pageSize, offset]),
});

export const predObjById = (id: number) => sql<PredObjRow>(`${PRED_OBJS} WHERE po.id = $1`, [id]);

export const insertPredObj = (predicateId: number, objectUri: string, poName: string | null, projectId: number, ownerId: number) =>
  sql<{ id: string }>('INSERT INTO pred_objs (predicate_id, object_uri, po_name, project_id, owner_id) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
    predicateId,
    objectUri,
    poName,
    projectId,
    ownerId,
  ]);
