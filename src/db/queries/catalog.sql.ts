import { sql } from '../sql';
import type { CatalogStatus } from '../../entities/catalog-entry';
import type { ClusterQuery, ComponentQuery, ModelQuery, PageRequest } from '../../parsers/catalog.parser';

/** The catalog's raw SQL: reads that join projects and users, the one recursive walk of a model tree, idempotent
 * inserts and lifecycle updates. bigint columns come back as text, counts are cast to int. */

const MAX_MODELS_LISTED = 100;

export type CatalogTable = 'components' | 'clusters' | 'data_models';
export type CatalogKind = 'component' | 'cluster' | 'data_model';

/** The ids of the clusters \`seed\` selects and of every cluster below them: the one recursive walk of a model tree
 * (a CTE named \`tree\`), each level's children read by key (a plain join let the planner scan all of
 * cluster_children at every level). */
export const clusterTree = (seed: string) => `tree(id) AS (
    ${seed}
    UNION SELECT cc.child_cluster_id FROM tree t CROSS JOIN LATERAL (
      SELECT c.child_cluster_id FROM cluster_children c WHERE c.cluster_id = t.id AND c.child_cluster_id IS NOT NULL OFFSET 0) cc)`;
const CLUSTER_TREE = `WITH RECURSIVE ${clusterTree('SELECT $1::bigint')}`;

/** One place of a tree: a cluster with one of its children (none: position null), in cluster then position order. */
export interface TreeRow {
  cluster_id: string;
  cluster_ct_id: string;
  cluster_label: string;
  cluster_description: string | null;
  position: number | null;
  child_cluster_id: string | null;
  ct_id: string | null;
  label: string | null;
  data_type: string | null;
  description: string | null;
  units: string | null;
  enums: string[] | null;
  enum_descr: Record<string, string> | null;
  details: { allow?: string[] } | null;
  links: SemanticLinkRow[] | null;
  cluster_links: SemanticLinkRow[];
}

interface SemanticLinkRow {
  predicate: string;
  object: string;
}

/** The semantic links (predicate IRI, object IRI) of the entry \`entry\` through the link table. */
export const linksOf = (table: string, column: string, entry: string) =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('predicate', n.uri || pr.class_name, 'object', po.object_uri) ORDER BY po.id), '[]'::jsonb)
      FROM ${table} l JOIN pred_objs po ON po.id = l.pred_obj_id JOIN predicates pr ON pr.id = po.predicate_id
      JOIN namespaces n ON n.id = pr.namespace_id WHERE l.${column} = ${entry}.id)`;

/** Every place (TreeRow) of the clusters in \`tree\` (clusterTree), unordered. Each cluster of the tree, its children
 * and their components are read by key (LATERAL, fenced by OFFSET 0 so the planner cannot flatten them back): a plain
 * join let it hash the whole of cluster_children and components for every read, a cost that grew with the catalog
 * (38 ms at 7,000 children, the reuse assembly's answer). */
export const TREE_PLACES = `SELECT cl.id AS cluster_id, cl.ct_id AS cluster_ct_id, cl.label AS cluster_label, cl.description AS cluster_description,
            cc.position, cc.child_cluster_id,
            co.ct_id, co.label, co.data_type, co.description, co.units, co.enums, co.enum_descr, co.details,
            CASE WHEN co.id IS NULL THEN NULL ELSE ${linksOf('component_pred_objs', 'component_id', 'co')} END AS links,
            ${linksOf('cluster_pred_objs', 'cluster_id', 'cl')} AS cluster_links
       FROM tree t CROSS JOIN LATERAL (SELECT * FROM clusters c WHERE c.id = t.id OFFSET 0) cl
       LEFT JOIN LATERAL (SELECT * FROM cluster_children c WHERE c.cluster_id = cl.id OFFSET 0) cc ON true
       LEFT JOIN LATERAL (SELECT * FROM components p WHERE p.id = cc.component_id OFFSET 0) co ON true`;

export const treeRows = (rootClusterId: number) => sql<TreeRow>(`${CLUSTER_TREE} ${TREE_PLACES} ORDER BY cl.id, cc.position`, [rootClusterId]);

export interface ClusterShapeRow {
  cluster_id: string;
  components: number;
  child_clusters: string[];
}

/** Every cluster below (and including) the clusters $1, each once, with its component count and its child
 * clusters (repeats kept): enough to count a tree's expanded size without expanding it. */
export const clusterShapes = (clusterIds: number[]) =>
  sql<ClusterShapeRow>(
    `WITH RECURSIVE tree(id) AS (
         SELECT unnest($1::bigint[])
         UNION SELECT cc.child_cluster_id FROM cluster_children cc JOIN tree t ON cc.cluster_id = t.id WHERE cc.child_cluster_id IS NOT NULL)
     SELECT t.id AS cluster_id, count(cc.component_id)::int AS components,
            coalesce(array_agg(cc.child_cluster_id) FILTER (WHERE cc.child_cluster_id IS NOT NULL), '{}') AS child_clusters
       FROM tree t LEFT JOIN cluster_children cc ON cc.cluster_id = t.id GROUP BY t.id`,
    [clusterIds],
  );

export const publishTreeComponents = (rootClusterId: number, now: Date) =>
  sql(
    `${CLUSTER_TREE} UPDATE components SET status = 'published', updated_at = $2
      WHERE status = 'draft' AND id IN (SELECT cc.component_id FROM cluster_children cc JOIN tree t ON cc.cluster_id = t.id)`,
    [rootClusterId, now],
  );

export const publishTreeClusters = (rootClusterId: number, now: Date) =>
  sql(`${CLUSTER_TREE} UPDATE clusters SET status = 'published', updated_at = $2 WHERE status = 'draft' AND id IN (SELECT id FROM tree)`, [
    rootClusterId,
    now,
  ]);

export interface ModelDocumentRow {
  ct_id: string;
  title: string;
  description: string | null;
  root_cluster_id: string;
  created_at: Date;
  author: string | null;
  dublin_core: { subject?: string; publisher?: string; source?: string; rights?: string; language?: string };
}

export const modelDocument = (dmCtId: string) =>
  sql<ModelDocumentRow>(
    `SELECT dm.ct_id, dm.title, dm.description, dm.root_cluster_id, dm.created_at, u.name AS author, dm.dublin_core
       FROM data_models dm LEFT JOIN users u ON u.id = dm.owner_id WHERE dm.ct_id = $1`,
    [dmCtId],
  );

export interface ModelSummaryRow {
  ct_id: string;
  title: string;
  description: string | null;
  project_name: string;
  published: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ModelDetailRow extends ModelSummaryRow {
  owner_id: string | null;
  contextual: Record<string, unknown>;
  generated: boolean;
  root_cluster_id: string;
}

/** Who sees an entry (aliases `p` for its project, viewer `$1`, null when anonymous): published entries of public
 * projects, and everything in the viewer's own projects or minted by the viewer (drafts included). */
const seen = (entry: string, published: string) => `((${published} AND p.is_public) OR ${entry}.owner_id = $1::bigint OR p.owner_id = $1::bigint)`;
const SEEN_COMPONENT = seen('c', "c.status <> 'draft'");
const SEEN_MODEL = seen('dm', 'dm.published');

/** A project named by name or ct_id (`$n`), and the viewer's default project only (`$m`). */
const inProject = (name: string, defaultOnly: string) =>
  `(${name}::text IS NULL OR p.name = ${name} OR p.ct_id = ${name}) AND (NOT ${defaultOnly}::boolean OR (p.owner_id = $1::bigint AND p.is_default))`;

/** A draft is found only by those who may see it, so its ct_id does not leak. */
export const visibleModelDetail = (dmCtId: string, viewerId: number | null) =>
  sql<ModelDetailRow>(
    `SELECT dm.ct_id, dm.title, dm.description, dm.published, dm.created_at, dm.updated_at, dm.contextual, dm.generated, dm.root_cluster_id,
            dm.owner_id, p.name AS project_name
       FROM data_models dm JOIN projects p ON p.id = dm.project_id
      WHERE dm.ct_id = $2 AND ${SEEN_MODEL}`,
    [viewerId, dmCtId],
  );

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** Newest first; `search` matches title, description or the exact ct_id. */
export const visibleModels = (query: ModelQuery, viewerId: number | null) =>
  sql<ModelSummaryRow>(
    `SELECT dm.ct_id, dm.title, dm.description, dm.published, dm.created_at, dm.updated_at, p.name AS project_name
       FROM data_models dm JOIN projects p ON p.id = dm.project_id
      WHERE ${SEEN_MODEL}
        AND ($2::text IS NULL OR dm.title ILIKE $2 OR dm.description ILIKE $2 OR dm.ct_id = $3)
        AND ${inProject('$4', '$5')}
      ORDER BY dm.updated_at DESC, dm.id DESC LIMIT ${MAX_MODELS_LISTED}`,
    [viewerId, query.search === null ? null : likePattern(query.search), query.search, query.project, query.defaultProjectOnly],
  );

export interface CountRow {
  n: number;
}

/** A filter over rows aliased `c`: its count and one page of it, ordered by label then ct_id. */
function labelledPage<Row>(columns: string, from: string, values: unknown[], page: PageRequest) {
  const limit = `$${values.length + 1}`;
  const offset = `$${values.length + 2}`;
  return {
    count: sql<CountRow>(`SELECT count(*)::int AS n ${from}`, values),
    page: sql<Row>(`SELECT ${columns} ${from} ORDER BY lower(c.label), c.ct_id LIMIT ${limit} OFFSET ${offset}`, [
      ...values,
      page.pageSize,
      (page.page - 1) * page.pageSize,
    ]),
  };
}

export interface ComponentRow {
  ct_id: string;
  label: string;
  description: string | null;
  data_type: string;
  units: string | null;
  status: CatalogStatus;
  successor_ct_id: string | null;
  project_name: string;
  project_ct_id: string;
  project_is_public: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A component page over `source`: the components table, or any relation with the same columns. */
export const componentPage = (source: string) => (query: ComponentQuery, viewerId: number | null) =>
  labelledPage<ComponentRow>(
    `c.ct_id, c.label, c.description, c.data_type, c.units, c.status, c.successor_ct_id, c.created_at, c.updated_at,
     p.name AS project_name, p.ct_id AS project_ct_id, p.is_public AS project_is_public`,
    `FROM ${source} c JOIN projects p ON p.id = c.project_id
      WHERE ${SEEN_COMPONENT}
        AND ($2::text[] IS NULL OR lower(c.data_type) = ANY($2::text[]) OR c.contextual_slot = $7)
        AND ${inProject('$3', '$8')}
        AND ($4::text IS NULL OR c.label ILIKE $4 OR c.description ILIKE $4 OR c.ct_id = $5)
        AND ($6::text IS NULL OR c.status = $6)`,
    [
      viewerId,
      query.type?.dataTypes ?? null,
      query.project,
      query.search === null ? null : likePattern(query.search),
      query.search,
      query.status,
      query.type?.slot ?? null,
      query.defaultProjectOnly,
    ],
    query,
  );

export const visibleComponents = componentPage('components');

export interface ClusterRow {
  ct_id: string;
  label: string;
  description: string | null;
  status: CatalogStatus;
  successor_ct_id: string | null;
  project_name: string;
  child_count: number;
}

export const visibleClusters = (query: ClusterQuery, viewerId: number | null) =>
  labelledPage<ClusterRow>(
    `c.ct_id, c.label, c.description, c.status, c.successor_ct_id, p.name AS project_name,
     (SELECT count(*)::int FROM cluster_children cc WHERE cc.cluster_id = c.id) AS child_count`,
    `FROM clusters c JOIN projects p ON p.id = c.project_id
      WHERE ${SEEN_COMPONENT}
        AND ${inProject('$2', '$5')}
        AND ($3::text IS NULL OR c.label ILIKE $3 OR c.description ILIKE $3 OR c.ct_id = $4)`,
    [viewerId, query.project, query.search === null ? null : likePattern(query.search), query.search, query.defaultProjectOnly],
    query,
  );

export interface ProjectCountRow {
  name: string;
  is_library: boolean;
  components: number;
  clusters: number;
  data_models: number;
}

/** The library, the viewer's projects and any project with entries the viewer can see, with those counts. */
export const visibleProjects = (viewerId: number | null) =>
  sql<ProjectCountRow>(
    `SELECT name, is_library, components, clusters, data_models FROM (
       SELECT p.name, p.is_library, p.owner_id,
              (SELECT count(*)::int FROM components c WHERE c.project_id = p.id AND ${SEEN_COMPONENT}) AS components,
              (SELECT count(*)::int FROM clusters c WHERE c.project_id = p.id AND ${SEEN_COMPONENT}) AS clusters,
              (SELECT count(*)::int FROM data_models dm WHERE dm.project_id = p.id AND ${SEEN_MODEL}) AS data_models
         FROM projects p) listed
      WHERE is_library OR owner_id = $1::bigint OR components + clusters + data_models > 0
      ORDER BY is_library DESC, name`,
    [viewerId],
  );

/** The model row a viewer may see (the artefact and package routes' check). */
export const visibleModelId = (dmCtId: string, viewerId: number | null) =>
  sql<{ id: string }>(`SELECT dm.id FROM data_models dm JOIN projects p ON p.id = dm.project_id WHERE dm.ct_id = $2 AND ${SEEN_MODEL}`, [
    viewerId,
    dmCtId,
  ]);

export interface MintedRow {
  id: string;
  ct_id: string;
}

/** INSERT … ON CONFLICT DO NOTHING: no row back when the mint key or the ct_id is already there. */
export function insertOnce(table: CatalogTable, values: Record<string, unknown>) {
  const columns = Object.keys(values);
  return sql<MintedRow>(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT DO NOTHING RETURNING id, ct_id`,
    Object.values(values),
  );
}

/** The row an insertOnce met: the same mint key first, else the same ct_id. */
export const mintedBefore = (table: CatalogTable, mintKey: string | null, ctId: string) =>
  sql<MintedRow>(`SELECT id, ct_id FROM ${table} WHERE mint_key = $1 OR ct_id = $2 ORDER BY (mint_key = $1) DESC NULLS LAST LIMIT 1`, [
    mintKey,
    ctId,
  ]);

/** Children in order: each place holds a component id or a cluster id, the other is null. */
export const insertClusterChildren = (clusterId: number, componentIds: Array<number | null>, clusterIds: Array<number | null>) =>
  sql(
    `INSERT INTO cluster_children (cluster_id, position, component_id, child_cluster_id)
     SELECT $1, ord - 1, comp, clus FROM unnest($2::bigint[], $3::bigint[]) WITH ORDINALITY AS t(comp, clus, ord)`,
    [clusterId, componentIds, clusterIds],
  );

export interface KindRow {
  kind: CatalogKind;
}

export const kindOf = (ctId: string) =>
  sql<KindRow>(
    `SELECT 'component' AS kind FROM components WHERE ct_id = $1
     UNION ALL SELECT 'cluster' FROM clusters WHERE ct_id = $1
     UNION ALL SELECT 'data_model' FROM data_models WHERE ct_id = $1 LIMIT 1`,
    [ctId],
  );

export interface LockedModelRow {
  id: string;
  root_cluster_id: string;
}

export const lockModel = (dmCtId: string) => sql<LockedModelRow>('SELECT id, root_cluster_id FROM data_models WHERE ct_id = $1 FOR UPDATE', [dmCtId]);

export const publishModel = (id: number, now: Date) =>
  sql('UPDATE data_models SET published = true, updated_at = $2 WHERE id = $1 AND NOT published', [id, now]);

export const publishComponent = (id: number, now: Date) =>
  sql(`UPDATE components SET status = 'published', updated_at = $2 WHERE id = $1 AND status = 'draft'`, [id, now]);

export interface StatusRow {
  status: CatalogStatus;
}

/** The row ids of the given ct_ids (an assembly's reuse references, resolved inside its transaction). */
export const idsByCtId = (table: 'components' | 'clusters', ctIds: string[]) =>
  sql<{ id: string; ct_id: string }>(`SELECT id, ct_id FROM ${table} WHERE ct_id = ANY($1)`, [ctIds]);

export const entryStatus = (table: 'components' | 'clusters', ctId: string) => sql<StatusRow>(`SELECT status FROM ${table} WHERE ct_id = $1`, [ctId]);

export const retireEntry = (table: 'components' | 'clusters', id: number, successorCtId: string | null, now: Date) =>
  sql(`UPDATE ${table} SET status = 'retired', successor_ct_id = $2, updated_at = $3 WHERE id = $1`, [id, successorCtId, now]);
