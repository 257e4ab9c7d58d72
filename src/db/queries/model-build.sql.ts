import type { CatalogStatus } from '../../entities/catalog-entry';
import type { Named } from './auth.sql';
import { clusterTree, linksOf, TREE_PLACES, type ModelDetailRow, type TreeRow } from './catalog.sql';

/** The model's detail row, and its whole tree as TreeRows (catalog-tree.ts makes the tree of them). */
export interface ReuseTreeRow extends ModelDetailRow {
  tree: TreeRow[];
}

/** The reuse assembly's SQL: its references resolved in one read, and its whole tree (new clusters, their places,
 * the model) written in one statement, so a reuse request costs the catalog two statements, not eleven. */

export interface ReuseRefRow {
  kind: 'component' | 'cluster';
  id: string;
  ct_id: string;
  label: string;
  /** null for a cluster. */
  data_type: string | null;
  status: CatalogStatus;
  successor_ct_id: string | null;
  owner_id: string | null;
}

/** Every component `$1` and cluster `$2` an assembly names, with what planning judges and the row id its build
 * places (one statement for both kinds). */
export const reuseRefs = (componentCtIds: string[], clusterCtIds: string[]): Named<ReuseRefRow> => ({
  name: 'assembly_reuse_refs',
  text: `SELECT 'component' AS kind, id, ct_id, label, data_type, status, successor_ct_id, owner_id FROM components WHERE ct_id = ANY($1::text[])
         UNION ALL
         SELECT 'cluster', id, ct_id, label, NULL, status, successor_ct_id, owner_id FROM clusters WHERE ct_id = ANY($2::text[])`,
  values: [componentCtIds, clusterCtIds],
});

/** A tree that mints no component, as arrays: the new clusters (their ct_ids minted by the caller), then every
 * place of every new cluster in order (a reused component's id, a new cluster's ct_id or a reused cluster's id). */
export interface ReuseTree {
  ownerId: number;
  status: CatalogStatus;
  now: Date;
  clusters: { ctIds: string[]; labels: string[]; descriptions: Array<string | null>; mintKeys: Array<string | null> };
  places: {
    parentCtIds: string[];
    positions: number[];
    componentIds: Array<number | null>;
    newClusterCtIds: Array<string | null>;
    clusterIds: Array<number | null>;
  };
  model: {
    ctId: string;
    title: string;
    description: string | null;
    /** The root: a new cluster's ct_id, or a reused cluster's id. */
    rootCtId: string | null;
    rootClusterId: number | null;
    contextual: Record<string, unknown>;
    published: boolean;
    mintKey: string | null;
  };
}

/** Writes a ReuseTree in one statement (atomic on its own) and returns the model's detail row with its tree (the new
 * clusters' places from what the statement inserted, a reused cluster's subtree from the catalog). Every row goes to
 * the owner's default project, else the library (as CatalogMinter places an entry with no project), and is minted
 * paid (the request's hold pays for it).
 *
 * Its commit does not wait for the WAL flush (synchronous_commit off for this statement's transaction only): the
 * build is promised to nobody until its hold is captured, and the capture's commit, synchronous and later in the
 * WAL, flushes the build with it. A server crash before the capture can only lose a build whose hold is open (or
 * lost with it: the WAL is replayed as a prefix), which the sweep releases, as it does after the process died. */
export const insertReuseTree = (t: ReuseTree): Named<ReuseTreeRow> => ({
  name: 'assembly_insert_reuse_tree',
  text: `WITH RECURSIVE proj AS (
           SELECT coalesce((SELECT id FROM projects WHERE owner_id = $1 AND is_default LIMIT 1), (SELECT id FROM projects WHERE is_library LIMIT 1)) AS id,
                  set_config('synchronous_commit', 'off', true) AS commit_unflushed),
         cl AS (
           INSERT INTO clusters (ct_id, label, description, status, project_id, owner_id, mint_key, paid, created_at, updated_at)
           SELECT u.ct_id, u.label, u.description, $2, proj.id, $1, u.mint_key, true, $3, $3
             FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) AS u(ct_id, label, description, mint_key) CROSS JOIN proj
           RETURNING id, ct_id, label, description),
         places AS (
           SELECT * FROM unnest($8::text[], $9::int[], $10::bigint[], $11::text[], $12::bigint[]) AS u(parent, position, component_id, child_ct, cluster_id)),
         ch AS (
           INSERT INTO cluster_children (cluster_id, position, component_id, child_cluster_id)
           SELECT parent.id, u.position, u.component_id, coalesce(child.id, u.cluster_id)
             FROM places u JOIN cl parent ON parent.ct_id = u.parent LEFT JOIN cl child ON child.ct_id = u.child_ct),
         dm AS (
           INSERT INTO data_models (ct_id, title, description, root_cluster_id, contextual, published, project_id, owner_id, mint_key, paid, created_at, updated_at)
           SELECT $13, $14, $15, coalesce((SELECT id FROM cl WHERE ct_id = $16), $17), $18::jsonb, $19, proj.id, $1, $20, true, $3, $3 FROM proj
           RETURNING ct_id, title, description, published, created_at, updated_at, contextual, generated, root_cluster_id, owner_id, project_id),
         ${clusterTree('SELECT unnest($21::bigint[])')},
         placed AS (
           SELECT cl.id AS cluster_id, cl.ct_id AS cluster_ct_id, cl.label AS cluster_label, cl.description AS cluster_description,
                  u.position, coalesce(child.id, u.cluster_id) AS child_cluster_id,
                  co.ct_id, co.label, co.data_type, co.description, co.units, co.enums, co.enum_descr, co.details,
                  CASE WHEN co.id IS NULL THEN NULL ELSE ${linksOf('component_pred_objs', 'component_id', 'co')} END AS links,
                  '[]'::jsonb AS cluster_links
             FROM cl LEFT JOIN places u ON u.parent = cl.ct_id LEFT JOIN cl child ON child.ct_id = u.child_ct
             LEFT JOIN components co ON co.id = u.component_id
           UNION ALL ${TREE_PLACES})
         SELECT dm.ct_id, dm.title, dm.description, dm.published, dm.created_at, dm.updated_at, dm.contextual, dm.generated, dm.root_cluster_id,
                dm.owner_id, p.name AS project_name, (SELECT jsonb_agg(r ORDER BY r.cluster_id, r.position) FROM placed r) AS tree
           FROM dm JOIN projects p ON p.id = dm.project_id`,
  values: [
    t.ownerId,
    t.status,
    t.now,
    t.clusters.ctIds,
    t.clusters.labels,
    t.clusters.descriptions,
    t.clusters.mintKeys,
    t.places.parentCtIds,
    t.places.positions,
    t.places.componentIds,
    t.places.newClusterCtIds,
    t.places.clusterIds,
    t.model.ctId,
    t.model.title,
    t.model.description,
    t.model.rootCtId,
    t.model.rootClusterId,
    JSON.stringify(t.model.contextual),
    t.model.published,
    t.model.mintKey,
    [...t.places.clusterIds.filter((id): id is number => id !== null), ...(t.model.rootClusterId === null ? [] : [t.model.rootClusterId])],
  ],
});
