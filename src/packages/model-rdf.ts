import type { PackageChild, PackageModel } from './package-model';
import { toTurtle, type RdfObject, type Triple } from './rdf-writer';

/** The model's RDF: the data model with its Dublin Core metadata, every cluster and component as an
 * sdc4-meta:ModelComponent with its label, description and reference-model type, and the hierarchy
 * (sdc4:hasDataItem from the model to its root cluster, sdc4:hasItems from a cluster to its items). */

const iri = (name: string): RdfObject => ({ iri: name });
const text = (value: string): RdfObject => ({ literal: value });

function childMc(child: PackageChild): string {
  return child.kind === 'cluster' ? `sdc4:mc-${child.cluster.node.ctId}` : `sdc4:mc-${child.component.node.ctId}`;
}

export function modelTriples(pm: PackageModel): Triple[] {
  const triples: Triple[] = [];
  const add = (subject: string, predicate: string, object: RdfObject) => triples.push({ subject, predicate, object });
  const component = (ctId: string, rmType: string, label: string, description: string | null) => {
    const s = `sdc4:mc-${ctId}`;
    add(s, 'rdf:type', iri('sdc4-meta:ModelComponent'));
    add(s, 'rdfs:label', text(label));
    if (description) add(s, 'rdfs:comment', text(description));
    add(s, 'sdc4-meta:isConstrainedByRmComponent', iri(`sdc4:${rmType}`));
    add(`sdc4:dm-${pm.model.ctId}`, 'sdc4-meta:isComposedOf', iri(s));
    return s;
  };

  const m = pm.model;
  const dm = `sdc4:dm-${m.ctId}`;
  add(dm, 'rdf:type', iri('sdc4-meta:DataModel'));
  add(dm, 'rdfs:label', text(m.title));
  add(dm, 'dc:title', text(m.title));
  if (m.author) add(dm, 'dc:creator', text(m.author));
  if (m.description) add(dm, 'dc:description', text(m.description));
  add(dm, 'dc:identifier', text(`dm-${m.ctId}`));
  add(dm, 'dc:date', { literal: m.created.toISOString(), datatype: 'xsd:dateTime' });
  add(dm, 'dc:language', text(m.language));
  add(dm, 'dc:format', text('text/xml'));
  add(dm, 'dc:type', text('SDC Data Model (DM)'));
  for (const [field, value] of Object.entries(m.dublinCore ?? {})) if (value) add(dm, `dc:${field}`, text(value));
  const dmType = component(m.ctId, 'DMType', m.title, m.description);
  add(dm, 'sdc4:hasDataItem', iri(`sdc4:mc-${pm.root.node.ctId}`));
  add(dmType, 'sdc4:hasDataItem', iri(`sdc4:mc-${pm.root.node.ctId}`));

  for (const cluster of pm.clusters) {
    const s = component(cluster.node.ctId, 'ClusterType', cluster.node.label, cluster.node.description);
    for (const link of cluster.node.links ?? []) add(s, link.predicate, iri(link.object));
    for (const child of cluster.children) add(s, 'sdc4:hasItems', iri(childMc(child)));
  }
  for (const c of pm.components) {
    const s = component(c.node.ctId, `${c.node.dataType}Type`, c.node.label, c.node.description);
    for (const link of c.node.links ?? []) add(s, link.predicate, iri(link.object));
    if (!c.units) continue;
    add(s, 'sdc4-meta:hasUnit', iri(`sdc4:mc-${c.units.ctId}`));
    const units = component(c.units.ctId, 'XdStringType', c.units.label, null);
    if (c.units.value !== null) add(units, 'sdc4:xdstring-value', text(c.units.value));
  }
  return triples;
}

export function generateTurtle(pm: PackageModel, triples: Triple[] = modelTriples(pm)): string {
  return toTurtle(triples, [`# SDC4 data model ${pm.model.ctId}: model, clusters, components and hierarchy`]);
}
