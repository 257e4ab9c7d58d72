import type { TreeNode } from '../domain/model-tree';
import type { CatalogIndex, ClusterListing, ComponentListing, ImportResult, LifecycleResult, ModelDetail, ModelSummary, Page } from '../services/catalog.service';
import { ARTIFACTS, modelUrl } from '../services/package.service';

/** Catalog output fields (snake_case, absolute URLs from PUBLIC_BASE_URL) for REST, CLI and the assembly's
 * 200 response. */

export const reuseRef = (projectName: string, label: string) => `@${projectName}:${label}`;

export interface PresentedNode {
  type: string;
  ct_id: string;
  label: string;
  description: string | null;
  units: string | null;
  children: PresentedNode[];
}

/** `type` is the reference-model type of a component (XdString, …) or `Cluster`. */
export function presentTree(node: TreeNode): PresentedNode {
  if (node.kind === 'component') {
    return { type: node.dataType, ct_id: node.ctId, label: node.label, description: node.description, units: node.units, children: [] };
  }
  return { type: 'Cluster', ct_id: node.ctId, label: node.label, description: node.description, units: null, children: node.children.map(presentTree) };
}

export function presentModelSummary(model: ModelSummary, base: string) {
  return {
    ct_id: model.ctId,
    identifier: `dm-${model.ctId}`,
    title: model.title,
    description: model.description,
    project_name: model.projectName,
    about: modelUrl(base, model.ctId),
    created: model.created.toISOString(),
    updated: model.updated.toISOString(),
  };
}

/** The catalog fields of one model: its summary, its tree from the root cluster, and its artefact URLs. */
export function presentModel(detail: ModelDetail, base: string) {
  const artifacts = Object.fromEntries(Object.keys(ARTIFACTS).map((kind) => [kind, modelUrl(base, detail.ctId, kind)])) as Record<
    keyof typeof ARTIFACTS,
    string
  >;
  return {
    ...presentModelSummary(detail, base),
    published: detail.published,
    generated: detail.generated,
    package_url: detail.generated ? modelUrl(base, detail.ctId, 'package') : null,
    contextual: detail.contextual,
    artifacts,
    components: [presentTree(detail.root)],
  };
}

export function presentComponent(component: ComponentListing) {
  return {
    ct_id: component.ctId,
    label: component.label,
    description: component.description,
    component_type: component.dataType,
    project_name: component.projectName,
    reuse_ref: reuseRef(component.projectName, component.label),
    units: component.units,
    status: component.status,
    successor: component.successorCtId,
  };
}

export function presentCluster(cluster: ClusterListing) {
  return {
    ct_id: cluster.ctId,
    label: cluster.label,
    description: cluster.description,
    project_name: cluster.projectName,
    reuse_ref: reuseRef(cluster.projectName, cluster.label),
    status: cluster.status,
    successor: cluster.successorCtId,
    child_count: cluster.childCount,
  };
}

export function presentPage<T, R>(page: Page<T>, present: (item: T) => R) {
  return { count: page.count, page: page.page, page_size: page.pageSize, results: page.results.map(present) };
}

export function presentIndex(index: CatalogIndex, base: string) {
  return {
    endpoints: {
      components: `${base}/api/v1/catalog/components/`,
      clusters: `${base}/api/v1/catalog/clusters/`,
      dms: `${base}/api/v1/catalog/dms/`,
      dm: `${base}/api/v1/catalog/dm/{ct_id}/`,
    },
    data_types: index.dataTypes,
    counts: { components: index.counts.components, clusters: index.counts.clusters, dms: index.counts.dataModels },
    projects: index.projects.map((p) => ({
      name: p.name,
      is_library: p.isLibrary,
      components: p.components,
      clusters: p.clusters,
      dms: p.dataModels,
    })),
  };
}

export function presentImport(result: ImportResult & { xsdName: string }) {
  return {
    dm_ct_id: result.dmCtId,
    title: result.title,
    xsd: result.xsdName,
    data_model: result.dataModelCreated ? 'created' : 'existing',
    components: result.components,
    clusters: result.clusters,
  };
}

export function presentLifecycle(result: LifecycleResult) {
  return { kind: result.kind, ct_id: result.ctId, status: result.status, successor: result.successorCtId };
}
