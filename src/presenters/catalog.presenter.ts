import type { CatalogKind, ClusterRow, ComponentRow, ModelDetailRow, ModelSummaryRow, ProjectCountRow } from '../db/queries/catalog.sql';
import { DATA_TYPES, type ClusterNode, type TreeNode } from '../domain/model-tree';
import type { CatalogStatus } from '../entities/catalog-entry';
import type { Links } from '../lib/links';
import { studioTypeName } from '../parsers/catalog.parser';
import type { Schema, Static } from '../lib/json-schema';
import type {
  clusterSchema,
  componentSchema,
  dmgenComponentSchema,
  indexSchema,
  linkedPageSchema,
  modelSchema,
  modelSummarySchema,
  nodeSchema,
  pageSchema,
} from './catalog.schema';

/** The catalog's views (camelCase, absolute URLs), built once here from its rows; GraphQL returns them as they
 * are and REST renders them to the contract's snake_case bodies with the `render*` functions below. */

/** A place in a model tree; `type` is a component's reference-model type (XdString, …) or `Cluster`. */
export interface NodeView {
  type: string;
  ctId: string;
  label: string;
  /** The studio's production sample names each place too (here its label). */
  name: string;
  /** The ct_id of the cluster holding this place; null for the root. */
  parentCluster: string | null;
  description: string | null;
  units: string | null;
  /** A cluster met earlier in the tree (document order) is shown there once; here it is a reference: this flag,
   * its own fields and no children. Always false for components. */
  repeated: boolean;
  children: NodeView[];
}

/** modelSummarySchema's body in camelCase, with Dates. */
export interface ModelSummaryView {
  ctId: string;
  identifier: string;
  title: string;
  description: string | null;
  projectName: string;
  about: string;
  created: Date;
  updated: Date;
}

export interface ModelView extends ModelSummaryView {
  published: boolean;
  generated: boolean;
  packageUrl: string | null;
  contextual: Record<string, unknown>;
  artifacts: Record<ArtifactKey, string>;
  /** The root cluster, with the whole tree below it. */
  root: NodeView;
}

export interface ComponentView {
  ctId: string;
  label: string;
  description: string | null;
  componentType: string;
  projectName: string;
  reuseRef: string;
  units: string | null;
  status: CatalogStatus;
  successor: string | null;
  projectCtId: string;
  published: boolean;
  isPublic: boolean;
  /** Predicate-object pairs; none are recorded yet, so always empty. */
  predObj: string[];
  created: Date;
  updated: Date;
}

/** clusterSchema's body in camelCase, with the status typed. */
export interface ClusterView {
  ctId: string;
  label: string;
  description: string | null;
  projectName: string;
  reuseRef: string;
  status: CatalogStatus;
  successor: string | null;
  childCount: number;
}

export interface PageView<T> {
  count: number;
  page: number;
  pageSize: number;
  results: T[];
}

export interface ProjectView {
  name: string;
  isLibrary: boolean;
  components: number;
  clusters: number;
  dataModels: number;
}

export interface CatalogIndexView {
  dataTypes: string[];
  components: number;
  clusters: number;
  dataModels: number;
  projects: ProjectView[];
}

/** Every artefact key a client may find in a model's `artifacts` (clients.md). */
const ARTIFACT_KEYS = ['xsd', 'xml', 'json', 'jsonld', 'html', 'ttl', 'shacl', 'gql', 'zip', 'sha1', 'skeleton'] as const;
export type ArtifactKey = (typeof ARTIFACT_KEYS)[number];

/** Each key's URL: the package ZIP under `dms/…/artifacts/zip/`, the others under `dm/{ct_id}/{key}/`. */
export function artifactUrls(dmCtId: string, links: Links): Record<ArtifactKey, string> {
  const zip = `${links.catalog(`dms/${encodeURIComponent(dmCtId)}/artifacts/zip`)}`;
  return Object.fromEntries(ARTIFACT_KEYS.map((key) => [key, key === 'zip' ? zip : links.model(dmCtId, key)])) as Record<ArtifactKey, string>;
}

/** `@<project>:<label>` for a published entry; a draft adds `#<ct_id>`, as drafts of one project may share a label
 * while the modeler is still naming them (the desktop modeler keys its picks by this reference). */
const reuseRef = (row: { project_name: string; label: string; ct_id: string; status: string }) =>
  `@${row.project_name}:${row.label}${row.status === 'draft' ? `#${row.ct_id}` : ''}`;

/** A tree view in which each cluster is expanded once: a cluster shared by several places (or listed twice by a
 * model stored before repeats were refused) is a reference after its first place, so the view is never larger
 * than the stored rows however the tree is shared. */
function nodeView(node: TreeNode, parentCluster: string | null = null, expanded = new Set<string>()): NodeView {
  const place = { ctId: node.ctId, label: node.label, name: node.label, parentCluster, description: node.description };
  if (node.kind === 'component') return { ...place, type: node.dataType, units: node.units, repeated: false, children: [] };
  if (expanded.has(node.ctId)) return { ...place, type: 'Cluster', units: null, repeated: true, children: [] };
  expanded.add(node.ctId);
  return { ...place, type: 'Cluster', units: null, repeated: false, children: node.children.map((child) => nodeView(child, node.ctId, expanded)) };
}

export function modelSummaryView(row: ModelSummaryRow, links: Links): ModelSummaryView {
  return {
    ctId: row.ct_id,
    identifier: `dm-${row.ct_id}`,
    title: row.title,
    description: row.description,
    projectName: row.project_name,
    about: links.model(row.ct_id),
    created: row.created_at,
    updated: row.updated_at,
  };
}

export function modelView(row: ModelDetailRow, root: ClusterNode, links: Links): ModelView {
  return {
    ...modelSummaryView(row, links),
    published: row.published,
    generated: row.generated,
    packageUrl: row.generated ? links.model(row.ct_id, 'package') : null,
    contextual: row.contextual,
    artifacts: artifactUrls(row.ct_id, links),
    root: nodeView(root),
  };
}

export function componentView(row: ComponentRow): ComponentView {
  return {
    ctId: row.ct_id,
    label: row.label,
    description: row.description,
    componentType: row.data_type,
    projectName: row.project_name,
    reuseRef: reuseRef(row),
    units: row.units,
    status: row.status,
    successor: row.successor_ct_id,
    projectCtId: row.project_ct_id,
    published: row.status !== 'draft',
    isPublic: row.project_is_public,
    predObj: [],
    created: row.created_at,
    updated: row.updated_at,
  };
}

export function clusterView(row: ClusterRow): ClusterView {
  return {
    ctId: row.ct_id,
    label: row.label,
    description: row.description,
    projectName: row.project_name,
    reuseRef: reuseRef(row),
    status: row.status,
    successor: row.successor_ct_id,
    childCount: row.child_count,
  };
}

export function catalogIndexView(rows: ProjectCountRow[]): CatalogIndexView {
  const projects = rows.map((p) => ({
    name: p.name,
    isLibrary: p.is_library,
    components: p.components,
    clusters: p.clusters,
    dataModels: p.data_models,
  }));
  const sum = (key: 'components' | 'clusters' | 'dataModels') => projects.reduce((n, p) => n + p[key], 0);
  return { dataTypes: [...DATA_TYPES], components: sum('components'), clusters: sum('clusters'), dataModels: sum('dataModels'), projects };
}

export function renderNode(node: NodeView): Static<typeof nodeSchema> {
  return {
    type: node.type,
    ct_id: node.ctId,
    label: node.label,
    name: node.name,
    parent_cluster: node.parentCluster,
    description: node.description,
    units: node.units,
    ...(node.repeated ? { repeated: true } : {}),
    children: node.children.map(renderNode),
  };
}

export function renderModelSummary(model: ModelSummaryView): Static<typeof modelSummarySchema> {
  return {
    ct_id: model.ctId,
    identifier: model.identifier,
    title: model.title,
    description: model.description,
    project_name: model.projectName,
    about: model.about,
    created: model.created.toISOString(),
    updated: model.updated.toISOString(),
  };
}

/** The catalog fields of one model (GET dm/{ct_id}/ and the model part of the assembly's 200 body). */
export function renderModel(model: ModelView): Static<typeof modelSchema> {
  return {
    ...renderModelSummary(model),
    published: model.published,
    generated: model.generated,
    package_url: model.packageUrl,
    contextual: model.contextual,
    artifacts: model.artifacts,
    components: [renderNode(model.root)],
  };
}

export function renderComponent(component: ComponentView): Static<typeof componentSchema> {
  return {
    ct_id: component.ctId,
    label: component.label,
    description: component.description,
    component_type: component.componentType,
    project_name: component.projectName,
    reuse_ref: component.reuseRef,
    units: component.units,
    pred_obj: component.predObj,
    status: component.status,
    successor: component.successor,
  };
}

/** An entry as `/dmgen/components/` lists it: `type` the studio's name (studioTypeName), `component_type` the
 * reference-model name. */
export function renderDmgenComponent(component: ComponentView): Static<typeof dmgenComponentSchema> {
  return {
    ct_id: component.ctId,
    label: component.label,
    description: component.description,
    type: studioTypeName(component.componentType),
    component_type: component.componentType,
    published: component.published,
    public: component.published && component.isPublic,
    project_name: component.projectName,
    project_ct_id: component.projectCtId,
    units: component.units,
    created: component.created.toISOString(),
    updated: component.updated.toISOString(),
  };
}

/** The studio's paginated list: `{count, next, previous, results}`, `pageUrl` giving the URL of another page. */
export function renderLinkedPage<T, R>(
  page: PageView<T>,
  render: (item: T) => R,
  pageUrl: (page: number) => string,
): Static<ReturnType<typeof linkedPageSchema<Schema<R>>>> {
  const last = Math.max(1, Math.ceil(page.count / page.pageSize));
  return {
    count: page.count,
    next: page.page < last ? pageUrl(page.page + 1) : null,
    previous: page.page > 1 ? pageUrl(Math.min(page.page - 1, last)) : null,
    results: page.results.map(render),
  };
}

export function renderCluster(cluster: ClusterView): Static<typeof clusterSchema> {
  return {
    ct_id: cluster.ctId,
    label: cluster.label,
    description: cluster.description,
    project_name: cluster.projectName,
    reuse_ref: cluster.reuseRef,
    status: cluster.status,
    successor: cluster.successor,
    child_count: cluster.childCount,
  };
}

export function renderPage<T, R>(page: PageView<T>, render: (item: T) => R): Static<ReturnType<typeof pageSchema<Schema<R>>>> {
  return { count: page.count, page: page.page, page_size: page.pageSize, results: page.results.map(render) };
}

export function renderIndex(index: CatalogIndexView, links: Links): Static<typeof indexSchema> {
  return {
    endpoints: {
      components: links.catalog('components'),
      clusters: links.catalog('clusters'),
      dms: links.catalog('dms'),
      dm: links.catalog('dm/{ct_id}'),
    },
    data_types: index.dataTypes,
    counts: { components: index.components, clusters: index.clusters, dms: index.dataModels },
    projects: index.projects.map((p) => ({
      name: p.name,
      is_library: p.isLibrary,
      components: p.components,
      clusters: p.clusters,
      dms: p.dataModels,
    })),
  };
}

export interface LifecycleResult {
  kind: CatalogKind;
  ctId: string;
  status: CatalogStatus;
  successorCtId: string | null;
}

export interface ImportResult {
  dmCtId: string;
  title: string;
  dataModelCreated: boolean;
  components: { created: string[]; existing: string[] };
  clusters: { created: string[]; existing: string[] };
}

export function renderImport(result: ImportResult & { xsdName: string }) {
  return {
    dm_ct_id: result.dmCtId,
    title: result.title,
    xsd: result.xsdName,
    data_model: result.dataModelCreated ? 'created' : 'existing',
    components: result.components,
    clusters: result.clusters,
  };
}

export function renderLifecycle(result: LifecycleResult) {
  return { kind: result.kind, ct_id: result.ctId, status: result.status, successor: result.successorCtId };
}
