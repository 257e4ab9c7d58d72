import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DataFactory, Parser, type Quad } from 'n3';
import { parse } from 'oxigraph';

/** The repository root: the nearest ancestor of this module holding package.json (works from src/ and dist/). */
export function projectRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

export function ontologiesDir(): string {
  return path.join(projectRoot(), 'ontologies');
}

export function readOntologyFile(name: string): Promise<string> {
  return readFile(path.join(ontologiesDir(), name), 'utf8');
}

export function contentTypeOf(file: string): 'text/turtle' | 'application/rdf+xml' {
  return file.endsWith('.ttl') ? 'text/turtle' : 'application/rdf+xml';
}

/** Triples of an RDF file (Turtle or RDF/XML) as n3 quads in the default graph. */
export function parseRdf(text: string, contentType: 'text/turtle' | 'application/rdf+xml' | 'application/n-triples'): Quad[] {
  if (contentType !== 'application/rdf+xml') return new Parser({ format: contentType === 'text/turtle' ? 'text/turtle' : 'N-Triples' }).parse(text);
  const { namedNode, blankNode, literal, quad } = DataFactory;
  const term = (t: { termType: string; value: string; language?: string; datatype?: { value: string } }) =>
    t.termType === 'NamedNode'
      ? namedNode(t.value)
      : t.termType === 'BlankNode'
        ? blankNode(t.value)
        : literal(t.value, t.language || namedNode(t.datatype!.value));
  return parse(text, { format: 'application/rdf+xml' }).map((q) =>
    quad(term(q.subject) as Quad['subject'], namedNode(q.predicate.value), term(q.object as Parameters<typeof term>[0]) as Quad['object']),
  );
}
