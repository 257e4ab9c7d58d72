import type { DataSource, EntityManager } from 'typeorm';
import { treeRows, type TreeRow } from '../db/queries/catalog.sql';
import { query } from '../db/sql';
import { isDataType, type ClusterNode, type ComponentNode, type TreeNode } from '../domain/model-tree';

type Slot = { clusterId: number } | { node: TreeNode };

/** The tree under a root cluster, in child order, from one query (the recursive walk in catalog.sql). */
export async function loadClusterTree(on: EntityManager | DataSource, rootClusterId: number): Promise<ClusterNode> {
  const clusters = new Map<number, ClusterNode>();
  const slotsOf = new Map<number, Slot[]>();
  for (const r of await query(on, treeRows(rootClusterId))) {
    const id = Number(r.cluster_id);
    let slots = slotsOf.get(id);
    if (!slots) {
      clusters.set(id, {
        kind: 'cluster',
        ctId: r.cluster_ct_id,
        label: r.cluster_label,
        description: r.cluster_description,
        children: [],
        ...(r.cluster_links.length ? { links: r.cluster_links } : {}),
      });
      slots = [];
      slotsOf.set(id, slots);
    }
    if (r.position === null) continue;
    if (r.child_cluster_id !== null) slots.push({ clusterId: Number(r.child_cluster_id) });
    else slots.push({ node: { ...componentNode(r.ct_id, r.label, r.data_type, r.description, r.units), ...draftFields(r) } });
  }
  for (const [id, slots] of slotsOf) {
    clusters.get(id)!.children = slots.map((s) => ('node' in s ? s.node : clusters.get(s.clusterId)!));
  }
  const root = clusters.get(rootClusterId);
  if (!root) throw new Error(`Root cluster ${rootClusterId} is missing`);
  return root;
}

/** What the drafts API adds to a component (enumerations, temporal parts, semantic links), only when set. */
function draftFields(r: TreeRow): Partial<ComponentNode> {
  const fields: Partial<ComponentNode> = {};
  if (r.enums?.length) fields.enums = r.enums;
  if (r.enum_descr && Object.keys(r.enum_descr).length) fields.enumDescr = r.enum_descr;
  if (r.details?.allow?.length) fields.temporalParts = r.details.allow;
  if (r.links?.length) fields.links = r.links;
  return fields;
}

/** A place holding no child cluster holds a component (cluster_children's check constraint). */
function componentNode(
  ctId: string | null,
  label: string | null,
  dataType: string | null,
  description: string | null,
  units: string | null,
): ComponentNode {
  if (ctId === null || label === null || !isDataType(dataType))
    throw new Error(`A tree place holds neither a cluster nor a valid component (${ctId})`);
  return { kind: 'component', ctId, label, dataType, description, units };
}
