import type { Queryable } from '../db/transaction';
import { clusterShapes, treeRows, type TreeRow } from '../db/queries/catalog.sql';
import { query } from '../db/sql';
import { isDataType, type ClusterNode, type ComponentNode, type TreeNode } from '../domain/model-tree';
import { badRequest } from '../lib/errors';
import { MAX_TREE_NODES } from '../parsers/assembly.parser';

type Slot = { clusterId: number } | { node: TreeNode };

/** The tree under a root cluster, in child order, from one query (the recursive walk in catalog.sql). */
export async function loadClusterTree(on: Queryable, rootClusterId: number): Promise<ClusterNode> {
  return clusterTreeOf(await query(on, treeRows(rootClusterId)), rootClusterId);
}

/** The tree under a root cluster from its places (TreeRows in cluster then position order). */
export function clusterTreeOf(rows: TreeRow[], rootClusterId: number): ClusterNode {
  const clusters = new Map<number, ClusterNode>();
  const slotsOf = new Map<number, Slot[]>();
  for (const r of rows) {
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

/** The expanded size (nodes once per place: the cluster itself, its components and, recursively, its child
 * clusters as often as they are listed) of each cluster below `clusterIds`, counted on the distinct clusters
 * from one query, never by expanding. Sizes stop growing past `cap` so shared subtrees cannot overflow. */
export async function expandedSizes(on: Queryable, clusterIds: number[], cap = MAX_TREE_NODES + 1): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  if (!clusterIds.length) return sizes;
  const shapes = new Map((await query(on, clusterShapes(clusterIds))).map((r) => [Number(r.cluster_id), r]));
  // Children exist before their parents, so the graph has no cycle; walk it without recursion.
  for (const start of shapes.keys()) {
    const stack = [start];
    while (stack.length) {
      const id = stack[stack.length - 1];
      if (sizes.has(id)) {
        stack.pop();
        continue;
      }
      const shape = shapes.get(id)!;
      const pending = shape.child_clusters.map(Number).filter((c) => !sizes.has(c));
      if (pending.length) {
        stack.push(...pending);
        continue;
      }
      let size = 1 + shape.components;
      for (const child of shape.child_clusters) size = Math.min(cap, size + sizes.get(Number(child))!);
      sizes.set(id, size);
      stack.pop();
    }
  }
  return sizes;
}

/** The expanded size of a cluster holding `components` components and these child clusters (repeats counted). */
export async function clusterTreeSize(on: Queryable, components: number, childClusterIds: number[]): Promise<number> {
  const sizes = await expandedSizes(on, [...new Set(childClusterIds)]);
  let size = 1 + components;
  for (const id of childClusterIds) size += sizes.get(id) ?? 1;
  return size;
}

/** The assembly bound on every model tree, checked when a cluster or a model is written: a tree of more than
 * MAX_TREE_NODES nodes once expanded is refused with a 400 naming it (`what`) and the field. */
export function assertTreeWithinBound(size: number, what: string, field: string): void {
  if (size <= MAX_TREE_NODES) return;
  const message = `${what} would expand to more than ${MAX_TREE_NODES} nodes (the bound on a model tree).`;
  throw badRequest(message, { details: { [field]: [message] } });
}
