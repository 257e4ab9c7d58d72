import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Parser, type Quad } from 'n3';
import { parse } from 'oxigraph';
import { projectRoot } from '../lib/project';
import { blankNode, literal, namedNode, quad } from '../rdf/terms';

export function ontologiesDir(): string {
  return path.join(projectRoot(), 'ontologies');
}

export function readOntologyFile(name: string): Promise<string> {
  return readFile(path.join(ontologiesDir(), name), 'utf8');
}

export function contentTypeOf(file: string): 'text/turtle' | 'application/rdf+xml' {
  return file.endsWith('.ttl') ? 'text/turtle' : 'application/rdf+xml';
}

type OxigraphTerm = { termType: string; value: string; language?: string; datatype?: { value: string } };

function n3Term(term: OxigraphTerm): Quad['subject'] | Quad['object'] {
  if (term.termType === 'NamedNode') return namedNode(term.value);
  if (term.termType === 'BlankNode') return blankNode(term.value);
  return literal(term.value, term.language || namedNode(term.datatype!.value));
}

/** Triples of an RDF document as n3 quads in the default graph (n3 parses Turtle and N-Triples, oxigraph RDF/XML). */
export function parseRdf(text: string, contentType: 'text/turtle' | 'application/rdf+xml' | 'application/n-triples'): Quad[] {
  if (contentType === 'text/turtle') return new Parser({ format: 'text/turtle' }).parse(text);
  if (contentType === 'application/n-triples') return new Parser({ format: 'N-Triples' }).parse(text);
  return parse(text, { format: contentType }).map((q) =>
    quad(n3Term(q.subject as OxigraphTerm) as Quad['subject'], namedNode(q.predicate.value), n3Term(q.object as OxigraphTerm)),
  );
}
