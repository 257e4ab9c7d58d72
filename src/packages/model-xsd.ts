import { contextualParticles, rmTypeOf } from './contextual';
import { contextualDeclarationLines, dmContextualLines, type ContextualComponent } from './contextual-slots';
import { componentParticles, unitsParticles } from './data-types';
import { xmlAttr, xmlText } from './escape';
import type { PackageChild, PackageCluster, PackageComponent, PackageModel } from './package-model';
import { SDC4_META_NS, SDC4_NS, SDC4_XSD_URL } from './package-model';
import { indent, particleLines, rdfAnnotationLines, restrictionTypeLines, xmlComment } from './xsd-writer';

/** The model's XML Schema, laid out like the studio's packages: the root `dm-<ct_id>` element in `sdc4:DM`'s
 * substitution group, one `mc-<ct_id>` restriction per model component, each component wrapped in an
 * XdAdapter inside its cluster, and `ms-<ct_id>` element declarations for all of them. */

function headerLines(pm: PackageModel): string[] {
  const m = pm.model;
  const dc = (name: string, value: string) => `          <dc:${name}>${xmlText(value)}</dc:${name}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<xsd:schema',
    '  xmlns:dc="http://purl.org/dc/elements/1.1/"',
    '  xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"',
    '  xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"',
    `  xmlns:sdc4="${SDC4_NS}"`,
    `  xmlns:sdc4-meta="${SDC4_META_NS}"`,
    '  xmlns:xsd="http://www.w3.org/2001/XMLSchema"',
    '  xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning"',
    `  targetNamespace="${SDC4_NS}"`,
    '  vc:minVersion="1.1">',
    '  <!-- Dublin Core Metadata for the Data Model -->',
    '  <xsd:annotation>',
    '    <xsd:appinfo>',
    '      <rdf:RDF>',
    `        <rdf:Description rdf:about="${SDC4_NS}dm-${m.ctId}">`,
    dc('title', m.title),
    ...(m.author ? [dc('creator', m.author)] : []),
    ...(m.description ? [dc('description', m.description)] : []),
    ...(m.dublinCore?.subject ? [dc('subject', m.dublinCore.subject)] : []),
    ...(m.dublinCore?.publisher ? [dc('publisher', m.dublinCore.publisher)] : []),
    ...(m.dublinCore?.source ? [dc('source', m.dublinCore.source)] : []),
    ...(m.dublinCore?.rights ? [dc('rights', m.dublinCore.rights)] : []),
    dc('type', 'SDC Data Model (DM)'),
    dc('identifier', `dm-${m.ctId}`),
    dc('date', m.created.toISOString()),
    dc('format', 'text/xml'),
    dc('language', m.language),
    '        </rdf:Description>',
    '      </rdf:RDF>',
    '    </xsd:appinfo>',
    '  </xsd:annotation>',
    '',
    `  <xsd:include schemaLocation="${SDC4_XSD_URL}"/>`,
    '',
  ];
}

function dmTypeLines(pm: PackageModel): string[] {
  const m = pm.model;
  const opt = (name: string, type: string) => `<xsd:element maxOccurs="1" minOccurs="0" name="${name}" type="${type}"/>`;
  const sequence = [
    `<xsd:element maxOccurs="1" minOccurs="1" name="dm-label" type="xsd:string" fixed="${xmlAttr(m.title)}"/>`,
    `<xsd:element maxOccurs="1" minOccurs="1" name="dm-language" type="xsd:language" fixed="${xmlAttr(m.language)}"/>`,
    '<xsd:element maxOccurs="1" minOccurs="1" name="dm-encoding" type="xsd:string" fixed="utf-8"/>',
    opt('creation_timestamp', 'xsd:dateTime'),
    opt('instance_id', 'xsd:string'),
    opt('instance_version', 'xsd:string'),
    opt('current-state', 'xsd:string'),
    `<xsd:element maxOccurs="1" minOccurs="1" ref="sdc4:ms-${pm.root.node.ctId}"/>`,
    ...dmContextualLines(pm.contextual),
  ];
  const annotation = rdfAnnotationLines({ ctId: m.ctId, rmType: 'DMType', label: m.title, comment: m.description });
  return [
    xmlComment(`Schema for DM ${m.title} (${m.ctId})`),
    `<xsd:element name="dm-${m.ctId}" substitutionGroup="sdc4:DM" type="sdc4:mc-${m.ctId}"/>`,
    ...restrictionTypeLines(`mc-${m.ctId}`, 'sdc4:DMType', annotation, sequence),
    '',
  ];
}

function componentLines(pm: PackageModel, c: PackageComponent): string[] {
  const node = c.node;
  const annotation = rdfAnnotationLines({
    ctId: node.ctId,
    rmType: `${node.dataType}Type`,
    label: node.label,
    comment: node.description,
    unitsCtId: c.units?.ctId,
    links: node.links,
  });
  const sequence = componentParticles(c, pm.createdDate).flatMap(particleLines);
  const lines = [
    xmlComment(`Schema for component ${node.label} (${node.ctId})`),
    ...restrictionTypeLines(`mc-${node.ctId}`, `sdc4:${node.dataType}Type`, annotation, sequence),
    '',
  ];
  if (c.units) {
    const units = c.units;
    const unitsAnnotation = rdfAnnotationLines({ ctId: units.ctId, rmType: 'XdStringType', label: units.label, comment: null });
    lines.push(
      xmlComment(`Schema for component ${units.label} (${units.ctId})`),
      ...restrictionTypeLines(
        `mc-${units.ctId}`,
        'sdc4:XdStringType',
        unitsAnnotation,
        unitsParticles(units.label, units.value).flatMap(particleLines),
      ),
      '',
    );
  }
  return lines;
}

function adapterLines(c: PackageComponent): string[] {
  const annotation = ['<xsd:annotation>', `  <xsd:documentation>Adapter for: ${xmlText(c.node.label)}</xsd:documentation>`, '</xsd:annotation>'];
  return [
    xmlComment(`Adapter wrapper for ${c.node.label} (${c.node.ctId})`),
    ...restrictionTypeLines(`mc-${c.adapterCtId}`, 'sdc4:XdAdapterType', annotation, [
      `<xsd:element maxOccurs="1" minOccurs="1" ref="sdc4:ms-${c.node.ctId}"/>`,
    ]),
    '',
  ];
}

/** The restriction of each contextual component not already defined by the tree (an Xd one may sit in both). */
function contextualTypeLines(pm: PackageModel): string[] {
  const defined = new Set(pm.components.map((c) => c.node.ctId));
  const createdIso = pm.model.created.toISOString();
  return pm.contextual.flatMap((c: ContextualComponent) => {
    if (defined.has(c.ctId)) return [];
    defined.add(c.ctId);
    const annotation = rdfAnnotationLines({ ctId: c.ctId, rmType: rmTypeOf(c), label: c.label, comment: c.description });
    const sequence = contextualParticles(c, createdIso, pm.createdDate).flatMap(particleLines);
    return [
      xmlComment(`Schema for contextual component ${c.label} (${c.ctId}, ${c.slot})`),
      ...restrictionTypeLines(`mc-${c.ctId}`, `sdc4:${rmTypeOf(c)}`, annotation, sequence),
      '',
    ];
  });
}

function childElementName(child: PackageChild): string {
  return child.kind === 'cluster' ? `ms-${child.cluster.node.ctId}` : `ms-${child.component.adapterCtId}`;
}

function clusterLines(cluster: PackageCluster): string[] {
  const node = cluster.node;
  const annotation = rdfAnnotationLines({ ctId: node.ctId, rmType: 'ClusterType', label: node.label, comment: node.description, links: node.links });
  // The items sit in an optional inner sequence so the whole maps onto the base's `sdc4:Item*` (MapAndSum):
  // a flat list of optional refs is not a valid restriction for a strict processor (the studio's own packages fail).
  const items = cluster.children.map((child) => `  <xsd:element maxOccurs="1" minOccurs="0" ref="sdc4:${childElementName(child)}"/>`);
  const sequence = [
    `<xsd:element maxOccurs="1" minOccurs="1" name="label" type="xsd:string" fixed="${xmlAttr(node.label)}"/>`,
    ...(items.length ? ['<xsd:sequence maxOccurs="1" minOccurs="0">', ...items, '</xsd:sequence>'] : []),
  ];
  return [
    xmlComment(`Schema for cluster ${node.label} (${node.ctId})`),
    ...restrictionTypeLines(`mc-${node.ctId}`, 'sdc4:ClusterType', annotation, sequence),
    '',
  ];
}

function declarationLines(pm: PackageModel): string[] {
  const declare = (ctId: string, group: string) => `<xsd:element name="ms-${ctId}" substitutionGroup="${group}" type="sdc4:mc-${ctId}"/>`;
  return [
    '<!-- Substitution Groups -->',
    ...pm.components.flatMap((c) => [
      declare(c.node.ctId, 'sdc4:XdAdapter-value'),
      ...(c.units ? [declare(c.units.ctId, 'sdc4:XdAdapter-value')] : []),
      declare(c.adapterCtId, 'sdc4:Item'),
    ]),
    ...pm.clusters.map((cl) => declare(cl.node.ctId, 'sdc4:Item')),
    ...contextualDeclarationLines(pm.contextual),
  ];
}

export function generateXsd(pm: PackageModel): string {
  const body = [
    ...dmTypeLines(pm),
    ...pm.components.flatMap((c) => componentLines(pm, c)),
    ...contextualTypeLines(pm),
    '<!-- XdAdapterType Wrappers for XdAnyType Components in Clusters -->',
    ...pm.components.flatMap(adapterLines),
    '<!-- Cluster Schemas -->',
    ...pm.clusters.flatMap(clusterLines),
    ...declarationLines(pm),
  ];
  return [...headerLines(pm), ...indent(body, '  '), '</xsd:schema>', ''].join('\n');
}
