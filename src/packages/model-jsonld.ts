import { TYPE_INFO } from './data-types';
import { prettyJson } from './escape';
import type { PackageCluster, PackageComponent, PackageModel } from './package-model';
import { SDC4_META_NS, SDC4_NS } from './package-model';

/** The model as flat JSON-LD (`dm-<ct_id>.jsonld`), the form the studio's readers take (the sdcreader library of the
 * DCAT and CDIF exporters): the model's `identifier` and Dublin Core `metadata`, then `components[]` with every
 * cluster and component once, each naming what it holds by reference (`contains: [{"@id"}]`), so a component reused
 * at several places is one entry with several positions. */

const CONTEXT = {
  '@vocab': SDC4_NS,
  sdc4: SDC4_NS,
  'sdc4-meta': SDC4_META_NS,
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  sh: 'http://www.w3.org/ns/shacl#',
  label: 'rdfs:label',
  description: 'rdfs:comment',
  type: '@type',
  id: '@id',
};

/** Every item of a cluster is optional and single (the model XSD's `minOccurs="0" maxOccurs="1"`). */
const CARDINALITY = { minOccurs: 0, maxOccurs: 1 };

const mc = (ctId: string) => `sdc4:mc-${ctId}`;

function semanticLinks(links: Array<{ predicate: string; object: string }> | undefined): Record<string, unknown> {
  return links?.length ? { semanticLinks: links.map((l) => ({ predicate: l.predicate, object: l.object })) } : {};
}

/** What restricts a component's value beyond its datatype: enumerated values, allowed temporal parts, its Units. */
function constraints(c: PackageComponent): Record<string, unknown> {
  const node = c.node;
  const out: Record<string, unknown> = {};
  if (node.enums?.length) out.enumeration = node.enums;
  if (node.enumDescr && Object.keys(node.enumDescr).length) out.enumerationDescriptions = node.enumDescr;
  if (node.temporalParts?.length) out.allowedParts = node.temporalParts;
  if (c.units) {
    out.units = {
      '@type': 'Units',
      '@id': mc(c.units.ctId),
      label: c.units.label,
      ...(c.units.value === null ? {} : { value: c.units.value }),
    };
  }
  return Object.keys(out).length ? { constraints: out } : {};
}

function componentEntry(c: PackageComponent): Record<string, unknown> {
  const node = c.node;
  return {
    '@type': `${node.dataType}Type`,
    '@id': mc(node.ctId),
    label: node.label,
    ...(node.description ? { description: node.description } : {}),
    cardinality: CARDINALITY,
    ...constraints(c),
    dataType: TYPE_INFO[node.dataType].valueDatatype,
    ...semanticLinks(node.links),
  };
}

function clusterEntry(cluster: PackageCluster): Record<string, unknown> {
  const childId = (child: PackageCluster['children'][number]) => (child.kind === 'cluster' ? child.cluster.node.ctId : child.component.node.ctId);
  return {
    '@type': 'ClusterType',
    '@id': mc(cluster.node.ctId),
    label: cluster.node.label,
    ...(cluster.node.description ? { description: cluster.node.description } : {}),
    cardinality: CARDINALITY,
    contains: cluster.children.map((child) => ({ '@id': mc(childId(child)) })),
    ...semanticLinks(cluster.node.links),
  };
}

/** The model's Dublin Core from its own fields: title, description, creator (the owner's name), the drafts API's
 * subject, publisher, source and rights, language, format and the creation date. */
function metadata(pm: PackageModel): Record<string, string> {
  const m = pm.model;
  const dc = m.dublinCore ?? {};
  const out: Record<string, string> = { 'dc:title': m.title };
  if (m.author) out['dc:creator'] = m.author;
  if (m.description) out['dc:description'] = m.description;
  for (const field of ['subject', 'publisher', 'source', 'rights'] as const) {
    const value = dc[field]?.trim();
    if (value) out[`dc:${field}`] = value;
  }
  out['dc:language'] = m.language;
  out['dc:format'] = 'text/xml';
  out['dc:date'] = m.created.toISOString();
  return out;
}

export function generateJsonLd(pm: PackageModel): string {
  const m = pm.model;
  const inTree = new Set(pm.components.map((c) => c.node.ctId));
  // Contextual components (audit, party, …) sit beside the tree: listed once, contained by no cluster.
  const contextual = pm.contextual
    .filter((c, i, all) => !inTree.has(c.ctId) && all.findIndex((o) => o.ctId === c.ctId) === i)
    .map((c) => ({
      '@type': `${c.componentType}Type`,
      '@id': mc(c.ctId),
      label: c.label,
      ...(c.description ? { description: c.description } : {}),
      cardinality: CARDINALITY,
    }));
  return prettyJson({
    '@context': CONTEXT,
    '@type': 'DataModel',
    '@id': `sdc4:dm-${m.ctId}`,
    identifier: m.ctId,
    label: m.title,
    ...(m.description ? { description: m.description } : {}),
    metadata: metadata(pm),
    components: [...pm.clusters.map(clusterEntry), ...pm.components.map(componentEntry), ...contextual],
  });
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An imported package's own JSON-LD as readers take it. A flat file (every `contains` item a bare `{"@id"}`) is
 * returned as null: serve its bytes unchanged. An older nested export (a cluster's `contains` holds the full child
 * objects) is flattened: each nested entry moves, with every key it shipped, into `components[]` once, and leaves a
 * reference behind; nothing else of the file changes. A file that is not such JSON-LD is also left alone (null). */
export function flattenShippedJsonLd(text: string): string | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(doc) || !Array.isArray(doc.components)) return null;
  const listed = new Map<string, Json>();
  const order: Json[] = [];
  let nested = false;
  const visit = (entry: unknown): unknown => {
    if (!isObject(entry) || typeof entry['@id'] !== 'string') return entry;
    const id = entry['@id'];
    const keys = Object.keys(entry);
    if (keys.length === 1) return entry;
    if (!listed.has(id)) {
      const copy: Json = { ...entry };
      listed.set(id, copy);
      order.push(copy);
      if (Array.isArray(entry.contains)) {
        copy.contains = entry.contains.map((child) => {
          if (isObject(child) && Object.keys(child).length > 1) nested = true;
          const inner = visit(child);
          return isObject(inner) && typeof inner['@id'] === 'string' ? { '@id': inner['@id'] } : inner;
        });
      }
    }
    return { '@id': id };
  };
  for (const entry of doc.components) visit(entry);
  if (!nested) return null;
  return prettyJson({ ...doc, components: order });
}
