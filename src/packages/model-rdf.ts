import { componentParticles, type ElementParticle } from './data-types';
import { turtleString } from './escape';
import type { PackageChild, PackageComponent, PackageModel } from './package-model';
import { toTurtle, turtleIri, turtlePrefixLines, type RdfObject, type Triple } from './rdf-writer';

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

function propertyShape(p: ElementParticle): string[] {
  const lines = [`sh:path sdc4:${p.element}`, 'sh:minCount 1', 'sh:maxCount 1'];
  if (p.fixed !== undefined) lines.push(`sh:hasValue ${turtleString(p.fixed)}`);
  else if (p.enumeration) lines.push(`sh:in ( ${p.enumeration.map(turtleString).join(' ')} )`);
  else if (p.type?.startsWith('xsd:')) lines.push(`sh:datatype ${p.type}`);
  else if (p.type?.startsWith('sdc4:mc-')) lines.push(`sh:class ${turtleIri(p.type)}`);
  return [`    sh:property [`, ...lines.map((line, i) => `        ${line}${i < lines.length - 1 ? ' ;' : ''}`), '    ]'];
}

function shape(target: string, label: string, properties: ElementParticle[]): string {
  const statements = [
    '    a sh:NodeShape',
    `    sh:targetClass ${turtleIri(target)}`,
    `    rdfs:label ${turtleString(label)}`,
    ...properties.map((p) => propertyShape(p).join('\n')),
  ];
  return `${turtleIri(`${target}-shape`)}\n${statements.join(' ;\n')} .`;
}

/** Required, single-valued elements of a component, as SHACL property shapes can state them. */
function requiredElements(pm: PackageModel, c: PackageComponent): ElementParticle[] {
  return componentParticles(c, pm.createdDate).filter((p): p is ElementParticle => 'element' in p && p.min === 1);
}

/** SHACL shapes for instance data, assuming the instance graph types each node with its mc- class and
 * states each XML child element as the sdc4 property of the same local name (as the SDC4 ontology does). */
export function generateShacl(pm: PackageModel): string {
  const labelOnly = (label: string): ElementParticle => ({ element: 'label', type: 'xsd:string', min: 1, fixed: label });
  const shapes = [
    ...pm.clusters.map((cl) => shape(`sdc4:mc-${cl.node.ctId}`, cl.node.label, [labelOnly(cl.node.label)])),
    ...pm.components.flatMap((c) => {
      const own = shape(`sdc4:mc-${c.node.ctId}`, c.node.label, requiredElements(pm, c));
      if (!c.units) return [own];
      const unitsValue: ElementParticle = {
        element: 'xdstring-value',
        type: 'xsd:string',
        min: 1,
        ...(c.units.value === null ? {} : { fixed: c.units.value }),
      };
      return [own, shape(`sdc4:mc-${c.units.ctId}`, c.units.label, [labelOnly(c.units.label), unitsValue])];
    }),
  ];
  return [`# SHACL shapes for instance data of SDC4 data model ${pm.model.ctId}`, ...turtlePrefixLines(), '', shapes.join('\n\n'), ''].join('\n');
}
