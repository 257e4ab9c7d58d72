import type { Quad, Term } from 'n3';

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function qname(iri: string, prefixes: Record<string, string>): string | null {
  for (const [prefix, ns] of Object.entries(prefixes)) {
    if (iri.startsWith(ns) && NCNAME.test(iri.slice(ns.length))) return `${prefix}:${iri.slice(ns.length)}`;
  }
  return null;
}

/** rdf:nodeID must be an XML name; parsers may label blank nodes otherwise (e.g. starting with a digit). */
function nodeAttribute(term: Term, attribute: 'about' | 'resource'): string {
  if (term.termType !== 'BlankNode') return `rdf:${attribute}="${escapeXml(term.value)}"`;
  return `rdf:nodeID="${NCNAME.test(term.value) ? term.value : `b${term.value.replace(/[^A-Za-z0-9_.-]/g, '_')}`}"`;
}

/** RDF/XML for the given triples (duplicates written once): one node element per subject in order of first
 * appearance, typed by its first rdf:type when that has a prefixed name. Every predicate needs a prefixed name;
 * blank nodes use rdf:nodeID. */
export function writeRdfXml(quads: Quad[], prefixes: Record<string, string>): string {
  const namespaces = { rdf: RDF, ...prefixes };
  const bySubject = new Map<string, { subject: Term; quads: Quad[] }>();
  const seen = new Set<string>();
  for (const quad of quads) {
    const id = `${quad.subject.termType}|${quad.subject.value}|${quad.predicate.value}|${quad.object.termType}|${quad.object.value}|${quad.object.termType === 'Literal' ? `${quad.object.language}|${quad.object.datatype.value}` : ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const key = `${quad.subject.termType}:${quad.subject.value}`;
    const entry = bySubject.get(key) ?? { subject: quad.subject, quads: [] };
    entry.quads.push(quad);
    bySubject.set(key, entry);
  }
  const lines = ['<?xml version="1.0" encoding="utf-8"?>', '<rdf:RDF'];
  for (const [prefix, ns] of Object.entries(namespaces)) lines.push(`    xmlns:${prefix}="${escapeXml(ns)}"`);
  lines[lines.length - 1] += '>';
  for (const { subject, quads: own } of bySubject.values()) {
    const typeQuad = own.find((q) => q.predicate.value === `${RDF}type` && q.object.termType === 'NamedNode' && qname(q.object.value, namespaces));
    const element = typeQuad ? qname(typeQuad.object.value, namespaces)! : 'rdf:Description';
    const rest = own.filter((q) => q !== typeQuad);
    const open = `    <${element} ${nodeAttribute(subject, 'about')}`;
    if (rest.length === 0) {
      lines.push('', `${open}/>`);
      continue;
    }
    lines.push('', `${open}>`);
    for (const quad of rest) lines.push(`        ${propertyElement(quad, namespaces)}`);
    lines.push(`    </${element}>`);
  }
  lines.push('</rdf:RDF>', '');
  return lines.join('\n');
}

function propertyElement(quad: Quad, namespaces: Record<string, string>): string {
  const name = qname(quad.predicate.value, namespaces);
  if (!name) throw new Error(`RDF/XML needs a prefixed name for predicate <${quad.predicate.value}>`);
  const object = quad.object;
  if (object.termType !== 'Literal') return `<${name} ${nodeAttribute(object, 'resource')}/>`;
  const attribute = object.language
    ? ` xml:lang="${escapeXml(object.language)}"`
    : object.datatype.value === XSD_STRING
      ? ''
      : ` rdf:datatype="${escapeXml(object.datatype.value)}"`;
  return `<${name}${attribute}>${escapeXml(object.value)}</${name}>`;
}
