import { xmlAttr, xmlSafe, xmlText } from './escape';
import type { SemanticLink } from '../domain/model-tree';
import type { ElementParticle, Particle } from './data-types';
import { SDC4_META_NS, SDC4_NS } from './package-model';

/** Small XSD-writing helpers shared by the schema generator: particles, RDF annotations, comments. */

export function xmlComment(text: string): string {
  // `--` may not appear inside an XML comment, nor may one end with `-`.
  return `<!-- ${xmlSafe(text).replace(/\s+/g, ' ').replace(/-{2,}/g, '-').replace(/-$/, '- ')} -->`;
}

function occurs(min: 0 | 1, max?: 'unbounded'): string {
  return `maxOccurs="${max ?? 1}" minOccurs="${min}"`;
}

function elementLines(p: ElementParticle): string[] {
  const attrs = [occurs(p.min, p.max), `name="${p.element}"`];
  if (p.type && !p.enumeration) attrs.push(`type="${p.type}"`);
  if (p.fixed !== undefined) attrs.push(`fixed="${xmlAttr(p.fixed)}"`);
  if (p.defaultValue !== undefined) attrs.push(`default="${xmlAttr(p.defaultValue)}"`);
  if (p.nillable) attrs.push('nillable="true"');
  const open = `<xsd:element ${attrs.join(' ')}`;
  if (p.enumeration) {
    return [
      `${open}>`,
      '  <xsd:simpleType>',
      `    <xsd:restriction base="${p.type}">`,
      ...p.enumeration.flatMap((value) => enumerationLines(value, p.enumerationDocs?.[value])),
      '    </xsd:restriction>',
      '  </xsd:simpleType>',
      '</xsd:element>',
    ];
  }
  if (p.restriction) {
    return [
      `${open}>`,
      '  <xsd:complexType>',
      '    <xsd:complexContent>',
      `      <xsd:restriction base="${p.restriction.base}">`,
      '        <xsd:sequence>',
      ...p.restriction.particles.flatMap(elementLines).map((line) => `          ${line}`),
      '        </xsd:sequence>',
      '      </xsd:restriction>',
      '    </xsd:complexContent>',
      '  </xsd:complexType>',
      '</xsd:element>',
    ];
  }
  return [`${open}/>`];
}

function enumerationLines(value: string, documentation: string | undefined): string[] {
  if (documentation === undefined) return [`      <xsd:enumeration value="${xmlAttr(value)}"/>`];
  return [
    `      <xsd:enumeration value="${xmlAttr(value)}">`,
    `        <xsd:annotation><xsd:documentation>${xmlText(xmlSafe(documentation))}</xsd:documentation></xsd:annotation>`,
    '      </xsd:enumeration>',
  ];
}

export function particleLines(p: Particle): string[] {
  if ('ref' in p) return [`<xsd:element ${occurs(p.min, p.max)} ref="${p.ref}"/>`];
  if ('choice' in p) {
    return [`<xsd:choice ${occurs(p.min)}>`, ...p.choice.flatMap(elementLines).map((line) => `  ${line}`), '</xsd:choice>'];
  }
  return elementLines(p);
}

export interface RdfAnnotation {
  ctId: string;
  rmType: string;
  label: string;
  comment: string | null;
  unitsCtId?: string | null;
  /** Semantic links: each an RDF statement about the component, its predicate a full IRI. */
  links?: SemanticLink[];
}

/** `<prefix:local xmlns:prefix="ns" rdf:resource="object"/>`: the predicate IRI split after its last # or /. */
function linkLine(link: SemanticLink): string {
  const cut = Math.max(link.predicate.lastIndexOf('#'), link.predicate.lastIndexOf('/')) + 1;
  const ns = link.predicate.slice(0, cut);
  const local = link.predicate.slice(cut);
  return `      <po:${local} xmlns:po="${xmlAttr(ns)}" rdf:resource="${xmlAttr(link.object)}"/>`;
}

/** The appinfo each mc- type carries, as in the studio's packages but with absolute IRIs (valid RDF). */
export function rdfAnnotationLines(a: RdfAnnotation): string[] {
  return [
    '<xsd:annotation>',
    '  <xsd:appinfo>',
    `    <rdf:Description rdf:about="${SDC4_NS}mc-${a.ctId}">`,
    `      <rdf:type rdf:resource="${SDC4_META_NS}ModelComponent"/>`,
    `      <sdc4-meta:isConstrainedByRmComponent rdf:resource="${SDC4_NS}${a.rmType}"/>`,
    `      <rdfs:label>${xmlText(a.label)}</rdfs:label>`,
    ...(a.comment ? [`      <rdfs:comment>${xmlText(a.comment)}</rdfs:comment>`] : []),
    ...(a.unitsCtId ? [`      <sdc4-meta:hasUnit rdf:resource="${SDC4_NS}mc-${a.unitsCtId}"/>`] : []),
    ...(a.links ?? []).map(linkLine),
    '    </rdf:Description>',
    '  </xsd:appinfo>',
    '</xsd:annotation>',
  ];
}

/** A named complex type restricting `base`, with its annotation and sequence. */
export function restrictionTypeLines(name: string, base: string, annotation: string[], sequence: string[]): string[] {
  return [
    `<xsd:complexType name="${name}">`,
    ...annotation.map((line) => `  ${line}`),
    '  <xsd:complexContent>',
    `    <xsd:restriction base="${base}">`,
    '      <xsd:sequence>',
    ...sequence.map((line) => `        ${line}`),
    '      </xsd:sequence>',
    '    </xsd:restriction>',
    '  </xsd:complexContent>',
    '</xsd:complexType>',
  ];
}

export function indent(lines: string[], by: string): string[] {
  return lines.map((line) => (line === '' ? line : `${by}${line}`));
}
