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

/** Deletes a held build's rows, in the order their references allow (the model, the clusters' children, the
 * clusters, the components). */
export const heldBuildDeleted = {
  models: (ids: number[]) => sql('DELETE FROM data_models WHERE id = ANY($1)', [ids]),
  children: (clusterIds: number[]) => sql('DELETE FROM cluster_children WHERE cluster_id = ANY($1)', [clusterIds]),
  clusters: (ids: number[]) => sql('DELETE FROM clusters WHERE id = ANY($1)', [ids]),
  components: (ids: number[]) => sql('DELETE FROM components WHERE id = ANY($1)', [ids]),
};
