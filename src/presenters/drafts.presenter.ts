import type {
  ClusterDraftRow,
  ComponentDraftRow,
  EntryColumns,
  ModelDraftRow,
  NamespaceRow,
  PredicateRow,
  PredObjRow,
} from '../db/queries/drafts.sql';
import type { CatalogStatus } from '../entities/catalog-entry';
import { chargeHeaders } from '../money';
import type { ComponentDetails, DublinCore, TemporalPart } from '../parsers/drafts.parser';
import { TEMPORAL_PARTS } from '../parsers/drafts.parser';
import type { Static } from '../lib/json-schema';
import type { clusterDraftSchema, componentDraftSchema, modelDraftSchema, namespaceSchema, predicateSchema, predObjSchema } from './drafts.schema';

/** The drafts API's views (what the services return, GraphQL types implement them) and their REST bodies as the
 * modeling tools read them (`../shared/spec/clients.md`): `enums` newline-joined, `enum_descr` "value: text"
 * lines, `pred_obj` a list of ids. */

export interface EntryView {
  id: number;
  ctId: string;
  label: string;
  description: string | null;
  status: CatalogStatus;
  published: boolean;
  /** Readable by anyone: published in a public project. */
  isPublic: boolean;
  projectCtId: string;
  projectName: string;
  predObj: number[];
  created: Date;
  updated: Date;
}

export interface ComponentDraftView extends EntryView {
  dataType: string;
  units: string | null;
  enums: string[];
  enumDescr: Record<string, string>;
  allow: TemporalPart[];
  referenceRanges: string[];
}

export interface ComponentMintView {
  component: ComponentDraftView;
  estimatedCostCredits: number;
  balanceCredits: number;
}

/** A cluster created through the drafts API, with its charge (the answer's X-SDC headers). */
export interface ClusterMintView {
  cluster: ClusterDraftView;
  estimatedCostCredits: number;
  balanceCredits: number;
}

/** A model created through the drafts API, with its charge. */
export interface ModelMintView {
  model: ModelDraftView;
  estimatedCostCredits: number;
  balanceCredits: number;
}

export interface ClusterChildView {
  kind: 'component' | 'cluster';
  ctId: string;
  dataType: string | null;
}

export interface ClusterDraftView extends EntryView {
  children: ClusterChildView[];
}

export interface ModelDraftView {
  id: number;
  ctId: string;
  title: string;
  description: string | null;
  published: boolean;
  generated: boolean;
  rootClusterCtId: string;
  dublinCore: DublinCore;
  projectCtId: string;
  projectName: string;
  created: Date;
  updated: Date;
}

export interface NamespaceView {
  id: number;
  abbrev: string;
  uri: string;
}

export interface PredicateView {
  id: number;
  nsPrefix: string;
  className: string;
  /** The predicate's full IRI. */
  uri: string;
}

export interface PredObjView {
  id: number;
  predicateId: number;
  /** The predicate as `prefix:ClassName`. */
  predicateName: string;
  objectUri: string;
  poName: string | null;
  projectCtId: string;
}

export function entryView(row: EntryColumns): EntryView {
  return {
    id: Number(row.id),
    ctId: row.ct_id,
    label: row.label,
    description: row.description,
    status: row.status,
    published: row.status !== 'draft',
    isPublic: row.status !== 'draft' && row.project_is_public,
    projectCtId: row.project_ct_id,
    projectName: row.project_name,
    predObj: row.pred_obj.map(Number),
    created: row.created_at,
    updated: row.updated_at,
  };
}

export function componentDraftView(row: ComponentDraftRow): ComponentDraftView {
  const details = row.details as ComponentDetails;
  return {
    ...entryView(row),
    dataType: row.data_type,
    units: row.units,
    enums: row.enums,
    enumDescr: row.enum_descr,
    allow: details.allow ?? [],
    referenceRanges: details.referenceRanges ?? [],
  };
}

export const clusterDraftView = (row: ClusterDraftRow): ClusterDraftView => ({
  ...entryView(row),
  children: row.children.map((c) => ({ kind: c.kind, ctId: c.ct_id, dataType: c.data_type })),
});

export const modelDraftView = (row: ModelDraftRow): ModelDraftView => ({
  id: Number(row.id),
  ctId: row.ct_id,
  title: row.title,
  description: row.description,
  published: row.published,
  generated: row.generated,
  rootClusterCtId: row.root_cluster_ct_id,
  dublinCore: row.dublin_core,
  projectCtId: row.project_ct_id,
  projectName: row.project_name,
  created: row.created_at,
  updated: row.updated_at,
});

export const namespaceView = (row: NamespaceRow): NamespaceView => ({ id: Number(row.id), abbrev: row.abbrev, uri: row.uri });

export const predicateView = (row: PredicateRow): PredicateView => ({
  id: Number(row.id),
  nsPrefix: row.ns_prefix,
  className: row.class_name,
  uri: `${row.ns_uri}${row.class_name}`,
});

export const predObjView = (row: PredObjRow): PredObjView => ({
  id: Number(row.id),
  predicateId: Number(row.predicate_id),
  predicateName: row.predicate,
  objectUri: row.object_uri,
  poName: row.po_name,
  projectCtId: row.project_ct_id,
});

/** "value: description" lines, in the order of the enumeration. */
const enumDescrLines = (enums: string[], described: Record<string, string>) =>
  enums.filter((e) => described[e] !== undefined).map((e) => `${e}: ${described[e]}`);

export function renderEntry(entry: EntryView) {
  return {
    id: entry.id,
    ct_id: entry.ctId,
    label: entry.label,
    description: entry.description ?? '',
    status: entry.status,
    published: entry.published,
    public: entry.isPublic,
    project: entry.projectCtId,
    project_ct_id: entry.projectCtId,
    project_name: entry.projectName,
    pred_obj: entry.predObj,
    created: entry.created.toISOString(),
    updated: entry.updated.toISOString(),
  };
}

export function renderComponentDraft(component: ComponentDraftView): Static<typeof componentDraftSchema> {
  const temporal =
    component.dataType === 'XdTemporal'
      ? Object.fromEntries(TEMPORAL_PARTS.map((part) => [`allow_${part}`, component.allow.length === 0 || component.allow.includes(part)]))
      : {};
  return {
    ...renderEntry(component),
    type: component.dataType.toLowerCase(),
    component_type: component.dataType,
    units: component.units,
    enums: component.enums.join('\n'),
    enum_descr: enumDescrLines(component.enums, component.enumDescr).join('\n'),
    enumeration: component.enums.map((value) => ({ value, description: component.enumDescr[value] ?? null })),
    reference_ranges: component.referenceRanges,
    ...temporal,
  };
}

/** The X-SDC headers of a charged drafts answer (component, cluster or model). */
export const mintHeaders = (mint: Pick<ComponentMintView, 'estimatedCostCredits' | 'balanceCredits'>) =>
  chargeHeaders(mint.estimatedCostCredits, mint.balanceCredits);

export function renderClusterDraft(cluster: ClusterDraftView): Static<typeof clusterDraftSchema> {
  const byField: { clusters: string[]; [field: string]: string[] } = { clusters: [] };
  for (const child of cluster.children) {
    const field = child.kind === 'cluster' ? 'clusters' : (child.dataType ?? 'component').toLowerCase();
    (byField[field] ??= []).push(child.ctId);
  }
  return {
    ...renderEntry(cluster),
    type: 'cluster',
    ...byField,
    children: cluster.children.map((c) => ({ kind: c.kind, ct_id: c.ctId, type: c.dataType?.toLowerCase() ?? 'cluster' })),
  };
}

export function renderModelDraft(model: ModelDraftView): Static<typeof modelDraftSchema> {
  const dc = model.dublinCore;
  return {
    id: model.id,
    ct_id: model.ctId,
    title: model.title,
    description: model.description ?? '',
    data: model.rootClusterCtId,
    dc_subject: dc.subject ?? '',
    publisher: dc.publisher ?? '',
    source: dc.source ?? '',
    rights: dc.rights ?? '',
    language: dc.language ?? 'en-US',
    published: model.published,
    generated: model.generated,
    project: model.projectCtId,
    project_name: model.projectName,
    created: model.created.toISOString(),
    updated: model.updated.toISOString(),
  };
}

export const renderNamespace = (ns: NamespaceView): Static<typeof namespaceSchema> => ({ id: ns.id, abbrev: ns.abbrev, uri: ns.uri });

export const renderPredicate = (p: PredicateView): Static<typeof predicateSchema> => ({
  id: p.id,
  ns_prefix: p.nsPrefix,
  ns_abbrev: p.nsPrefix,
  class_name: p.className,
  uri: p.uri,
});

export const renderPredObj = (po: PredObjView): Static<typeof predObjSchema> => ({
  id: po.id,
  predicate: po.predicateId,
  predicate_name: po.predicateName,
  object_uri: po.objectUri,
  po_name: po.poName,
  project: po.projectCtId,
});
