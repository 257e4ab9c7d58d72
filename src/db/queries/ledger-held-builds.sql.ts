import { sql } from '../sql';

/**
 * What a request built under a request hold before capturing it (the reuse assembly: hold, build in its own
 * transaction, capture). Its rows are minted with the hold's mint-key prefix, so a hold released instead of captured
 * (a refused capture, or the sweep after the process died between the build's commit and the capture) takes what
 * it built with it, in the release's transaction: nothing stays that was not paid for.
 */
/** The mint-key prefix of what is built under the hold `token` (ModelBuilder keys each row `{prefix}:{path}`). */
export const heldBuildPrefix = (token: string) => `held:${token}`;
const heldModelKey = (token: string) => `${heldBuildPrefix(token)}:model`;

export interface HeldBuildRow {
  models: string[];
  clusters: string[];
  components: string[];
}

/** The rows built under the holds `tokens`: each model, the clusters of its tree minted under its prefix (a reused
 * cluster is not, and its subtree is not walked), and the components they hold that were minted there. */
export const heldBuilds = (tokens: string[]) =>
  sql<HeldBuildRow>(
    `WITH RECURSIVE m AS (
       SELECT id, root_cluster_id, left(mint_key, length(mint_key) - 5) AS prefix FROM data_models WHERE mint_key = ANY($1)),
     tree(id, prefix) AS (
       SELECT c.id, m.prefix FROM m JOIN clusters c ON c.id = m.root_cluster_id WHERE starts_with(c.mint_key, m.prefix)
       UNION
       SELECT c.id, t.prefix FROM tree t JOIN cluster_children cc ON cc.cluster_id = t.id
         JOIN clusters c ON c.id = cc.child_cluster_id WHERE starts_with(c.mint_key, t.prefix))
     SELECT (SELECT coalesce(array_agg(id::text), '{}') FROM m) AS models,
            (SELECT coalesce(array_agg(id::text), '{}') FROM tree) AS clusters,
            (SELECT coalesce(array_agg(DISTINCT p.id::text), '{}') FROM tree t JOIN cluster_children cc ON cc.cluster_id = t.id
               JOIN components p ON p.id = cc.component_id WHERE starts_with(p.mint_key, t.prefix)) AS components`,
    [tokens.map(heldModelKey)],
  );

/** Locks a held build's clusters and components before it is judged (heldBuildUsed): a transaction placing one of
 * them elsewhere (its foreign key takes KEY SHARE) has committed, and is seen, or waits for the release. */
export const lockHeldBuild = (clusterIds: number[], componentIds: number[]) =>
  sql(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM clusters WHERE id = ANY($1) ORDER BY id FOR UPDATE) c)
          + (SELECT count(*) FROM (SELECT 1 FROM components WHERE id = ANY($2) ORDER BY id FOR UPDATE) p) AS locked`,
    [clusterIds, componentIds],
  );

export interface HeldBuildUsedRow {
  clusters: string[];
  components: string[];
}

/** What of a held build (its clusters $1, components $2, models $3) something outside it uses, so that deleting it
 * would break a foreign key: a cluster or component placed in a cluster that is not the build's, a cluster that
 * roots a model that is not the build's, or an entry named as another's successor; and everything of the build
 * below what is used (a kept cluster keeps its places). */
export const heldBuildUsed = (clusterIds: number[], componentIds: number[], modelIds: number[]) =>
  sql<HeldBuildUsedRow>(
    `WITH RECURSIVE used(id) AS (
       SELECT c.id FROM clusters c WHERE c.id = ANY($1) AND (
         EXISTS (SELECT 1 FROM cluster_children cc WHERE cc.child_cluster_id = c.id AND NOT cc.cluster_id = ANY($1))
         OR EXISTS (SELECT 1 FROM data_models dm WHERE dm.root_cluster_id = c.id AND NOT dm.id = ANY($3))
         OR EXISTS (SELECT 1 FROM clusters s WHERE s.successor_ct_id = c.ct_id))),
     kept(id) AS (
       SELECT id FROM used
       UNION SELECT cc.child_cluster_id FROM kept k JOIN cluster_children cc ON cc.cluster_id = k.id WHERE cc.child_cluster_id = ANY($1))
     SELECT (SELECT coalesce(array_agg(id::text), '{}') FROM kept) AS clusters,
            (SELECT coalesce(array_agg(p.id::text), '{}') FROM components p WHERE p.id = ANY($2) AND (
               EXISTS (SELECT 1 FROM cluster_children cc WHERE cc.component_id = p.id AND (cc.cluster_id IN (SELECT id FROM kept) OR NOT cc.cluster_id = ANY($1)))
               OR EXISTS (SELECT 1 FROM components s WHERE s.successor_ct_id = p.ct_id))) AS components`,
    [clusterIds, componentIds, modelIds],
  );

/** Deletes a held build's rows, in the order their references allow (the model, the clusters' children, the
 * clusters, the components), and marks what must stay (heldBuildUsed) as never paid for. */
export const heldBuildDeleted = {
  models: (ids: number[]) => sql('DELETE FROM data_models WHERE id = ANY($1)', [ids]),
  children: (clusterIds: number[]) => sql('DELETE FROM cluster_children WHERE cluster_id = ANY($1)', [clusterIds]),
  clusters: (ids: number[]) => sql('DELETE FROM clusters WHERE id = ANY($1)', [ids]),
  components: (ids: number[]) => sql('DELETE FROM components WHERE id = ANY($1)', [ids]),
  keptClusters: (ids: number[]) => sql('UPDATE clusters SET paid = false WHERE id = ANY($1)', [ids]),
  keptComponents: (ids: number[]) => sql('UPDATE components SET paid = false WHERE id = ANY($1)', [ids]),
};
