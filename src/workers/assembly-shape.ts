import { estimateId, type AssemblyRequest, type ClusterSpec } from '../parsers/assembly.parser';

/** What planning an assembly reads from its tree before it asks the catalog anything: every reference to look
 * up, every node to mint, and the estimate id (a hash of the canonical tree). Pure and proportional to the tree:
 * a large tree's is computed in the worker pool (assembly.task.ts), a small one's in place, by this one function. */
export interface AssemblyShape {
  componentRefs: Array<{ path: string; ctId: string }>;
  clusterRefs: Array<{ path: string; ctId: string }>;
  mint: Array<{ path: string; label: string; dataType: string }>;
  newClusters: number;
  estimateId: string;
}

export function assemblyShape(request: AssemblyRequest): AssemblyShape {
  const componentRefs = request.contextual.map((c) => ({ path: c.path, ctId: c.ctId }));
  const clusterRefs: AssemblyShape['clusterRefs'] = [];
  const mint: AssemblyShape['mint'] = [];
  let newClusters = 0;
  const stack: ClusterSpec[] = [request.root];
  while (stack.length) {
    const cluster = stack.pop()!;
    if (cluster.ctId) clusterRefs.push({ path: cluster.path, ctId: cluster.ctId });
    else if (cluster.path !== 'data') {
      newClusters++;
      mint.push({ path: cluster.path, label: cluster.label, dataType: 'Cluster' });
    }
    for (const c of cluster.components) {
      if (c.kind === 'reuse') componentRefs.push({ path: c.path, ctId: c.ctId });
      else mint.push({ path: c.path, label: c.label, dataType: c.dataType });
    }
    stack.push(...[...cluster.clusters].reverse());
  }
  return { componentRefs, clusterRefs, mint, newClusters, estimateId: estimateId(request) };
}

/** The tree's nodes (clusters and components), counted no further than `limit`. */
export function treeNodesUpTo(root: ClusterSpec, limit: number): number {
  let nodes = 0;
  const stack = [root];
  while (stack.length && nodes < limit) {
    const cluster = stack.pop()!;
    nodes += 1 + cluster.components.length;
    stack.push(...cluster.clusters);
  }
  return nodes;
}
