import { sql } from '../sql';

/** Publishing a draft tree charges what no door charged for (migration 0026's `paid`). */

export interface MarkedPaidRow {
  model: boolean;
  root_cluster: boolean;
  clusters: number;
  components: number;
}

/** Marks paid, and counts, the owner's unpaid drafts of a model's tree: the model, the clusters of its tree (the root
 * among them) and the components they hold. Each row is flipped once under its row lock, so two publishes that share
 * a draft cannot both count it; the caller charges what this returns in the same transaction (a refusal rolls the
 * marks back). */
export const unpaidTreeMarkedPaid = (modelId: number, ownerId: number) =>
  sql<MarkedPaidRow>(
    `WITH RECURSIVE root AS (SELECT root_cluster_id AS id FROM data_models WHERE id = $1),
     tree(id) AS (
       SELECT id FROM root
       UNION SELECT cc.child_cluster_id FROM cluster_children cc JOIN tree t ON cc.cluster_id = t.id WHERE cc.child_cluster_id IS NOT NULL),
     c AS (UPDATE clusters SET paid = true
            WHERE id IN (SELECT id FROM tree) AND status = 'draft' AND NOT paid AND owner_id = $2 RETURNING id),
     p AS (UPDATE components SET paid = true
            WHERE status = 'draft' AND NOT paid AND owner_id = $2
              AND id IN (SELECT cc.component_id FROM cluster_children cc JOIN tree t ON cc.cluster_id = t.id) RETURNING id),
     m AS (UPDATE data_models SET paid = true WHERE id = $1 AND NOT paid AND owner_id = $2 RETURNING id)
     SELECT EXISTS (SELECT 1 FROM m) AS model, EXISTS (SELECT 1 FROM c WHERE id = (SELECT id FROM root)) AS root_cluster,
            (SELECT count(*) FROM c)::int AS clusters, (SELECT count(*) FROM p)::int AS components`,
    [modelId, ownerId],
  );
