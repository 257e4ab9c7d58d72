import { turtleString, xmlAttr, xmlText } from './escape';

/** A minimal, deterministic RDF serialiser (Turtle and RDF/XML) for the model graphs a package carries:
 * named subjects only, subjects and predicates in the order they were first stated. Terms are compared as
 * written, so a graph names each IRI one way (prefixed throughout). */

export type RdfObject = { iri: string } | { literal: string; datatype?: string };

export interface Triple {
  subject: string;
  predicate: string;
  object: RdfObject;
}

const PREFIXES: Record<string, string> = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  dc: 'http://purl.org/dc/elements/1.1/',
  sh: 'http://www.w3.org/ns/shacl#',
  sdc4: 'https://semanticdatacharter.com/ns/sdc4/',
  'sdc4-meta': 'https://semanticdatacharter.com/ontology/sdc4-meta/',
};

/** Expands `prefix:local` to a full IRI; anything else is taken as a full IRI already. */
function expand(name: string): string {
  const colon = name.indexOf(':');
  const ns = colon > 0 ? PREFIXES[name.slice(0, colon)] : undefined;
  return ns ? ns + name.slice(colon + 1) : name;
}

const SAFE_LOCAL = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?$/;

/** The Turtle form of an IRI: a prefixed name when one fits, else `<…>`. */
export function turtleIri(name: string): string {
  const iri = expand(name);
  for (const [prefix, ns] of Object.entries(PREFIXES)) {
    if (iri.startsWith(ns) && SAFE_LOCAL.test(iri.slice(ns.length))) return `${prefix}:${iri.slice(ns.length)}`;
  }
  return `<${iri.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}>`;
}

function turtleObject(o: RdfObject): string {
  if ('iri' in o) return turtleIri(o.iri);
  return o.datatype ? `${turtleString(o.literal)}^^${turtleIri(o.datatype)}` : turtleString(o.literal);
}

function groupBySubject(triples: Triple[]): Map<string, Map<string, RdfObject[]>> {
  const subjects = new Map<string, Map<string, RdfObject[]>>();
  const seen = new Set<string>();
  for (const t of triples) {
    const object = 'iri' in t.object ? `<${t.object.iri}` : `"${t.object.literal}\u0000${t.object.datatype ?? ''}`;
    const key = `${t.subject}\u0000${t.predicate}\u0000${object}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const predicates = subjects.get(t.subject) ?? new Map<string, RdfObject[]>();
    subjects.set(t.subject, predicates);
    const objects = predicates.get(t.predicate) ?? [];
    predicates.set(t.predicate, objects);
    objects.push(t.object);
  }
  return subjects;
}

export function turtlePrefixLines(): string[] {
  return Object.entries(PREFIXES).map(([prefix, ns]) => `@prefix ${prefix}: <${ns}> .`);
}

export function toTurtle(triples: Triple[], header: string[] = []): string {
  const names = new Map<string, string>();
  const name = (iri: string) => names.get(iri) ?? (names.set(iri, turtleIri(iri)), names.get(iri));
  const object = (o: RdfObject) => ('iri' in o ? name(o.iri) : turtleObject(o));
  const blocks: string[] = [];
  for (const [subject, predicates] of groupBySubject(triples)) {
    const lines = [...predicates].map(([predicate, objects]) => {
      const p = expand(predicate) === `${PREFIXES.rdf}type` ? 'a' : name(predicate);
      return `    ${p} ${objects.map(object).join(' ,\n        ')}`;
    });
    blocks.push(`${name(subject)}\n${lines.join(' ;\n')} .`);
  }
  return [...header, ...turtlePrefixLines(), '', blocks.join('\n\n'), ''].join('\n');
}

const XML_LOCAL = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Splits an IRI into a namespace prefix and an XML-safe local name (RDF/XML needs both): a declared prefix, else
 * `po` declared on the element itself (a semantic link's predicate, split after its last # or /). */
function qname(iri: string): { name: string; declaration: string } {
  for (const [prefix, ns] of Object.entries(PREFIXES)) {
    if (iri.startsWith(ns) && XML_LOCAL.test(iri.slice(ns.length))) return { name: `${prefix}:${iri.slice(ns.length)}`, declaration: '' };
  }
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1;
  if (cut > 0 && XML_LOCAL.test(iri.slice(cut))) return { name: `po:${iri.slice(cut)}`, declaration: ` xmlns:po="${xmlAttr(iri.slice(0, cut))}"` };
  throw new Error(`No RDF/XML element name for predicate <${iri}>`);
}

export function toRdfXml(triples: Triple[]): string {
  const namespaces = Object.entries(PREFIXES).map(([prefix, ns]) => `   xmlns:${prefix}="${ns}"`);
  const descriptions: string[] = [];
  for (const [subject, predicates] of groupBySubject(triples)) {
    descriptions.push(`  <rdf:Description rdf:about="${xmlAttr(expand(subject))}">`);
    for (const [predicate, objects] of predicates) {
      const { name, declaration } = qname(expand(predicate));
      for (const o of objects) {
        if ('iri' in o) descriptions.push(`    <${name}${declaration} rdf:resource="${xmlAttr(expand(o.iri))}"/>`);
        else {
          const datatype = o.datatype ? ` rdf:datatype="${xmlAttr(expand(o.datatype))}"` : '';
          descriptions.push(`    <${name}${declaration}${datatype}>${xmlText(o.literal)}</${name}>`);
        }
      }
    }
    descriptions.push('  </rdf:Description>');
  }
  return ['<?xml version="1.0" encoding="utf-8"?>', '<rdf:RDF', ...namespaces, '>', ...descriptions, '</rdf:RDF>', ''].join('\n');
}
