import { Readable } from 'node:stream';
import { StreamParser, Writer, type Quad_Object, type Quad_Predicate, type Quad_Subject } from 'n3';
import { parse, type Quad } from 'oxigraph';
import { RDF_LIMITS } from './rdf-limits';

export type RdfFormat = 'text/turtle' | 'application/rdf+xml';

export class RdfParseError extends Error {}

/** Entity expansion an RDF/XML document may cause, relative to its own size (billion laughs guard). */
const MAX_EXPANSION_FACTOR = 4;

/** One document's triples as N-Triples lines, gathered into a set (duplicates removed across documents). */
type Lines = Set<string>;

/** Bytes decoded per step of the Turtle stream: the document is never held as one string. */
const CHUNK_BYTES = 64 * 1024;
const writer = new Writer({ format: 'N-Triples' });

/** Parses Turtle or RDF/XML bytes (strict UTF-8) and adds each triple to `into` as an N-Triples line, counting
 * triples against RDF_MAX_TRIPLES and terms against RDF_MAX_TERM_LENGTH as they come (the first one past a limit
 * stops the parse). Turtle is streamed through n3's StreamParser, so memory grows with the distinct triples only.
 * RDF/XML may declare internal entities (ontology editors write `&owl;`-style abbreviations) but not external or
 * parameter entities, nor entities built from other entities, nor references that would expand the document
 * beyond a few times its size. Returns the number of triples the document states. */
export async function addRdf(bytes: Uint8Array, format: RdfFormat, into: Lines): Promise<number> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const decode = (part: Uint8Array, stream: boolean) => {
    try {
      return decoder.decode(part, { stream });
    } catch {
      throw new RdfParseError('the file is not valid UTF-8');
    }
  };
  const counter = tripleCounter(into);
  if (format === 'application/rdf+xml') {
    const text = decode(bytes, false);
    guardEntities(text);
    let quads: Quad[];
    try {
      quads = parse(text, { format });
    } catch (error) {
      throw new RdfParseError(String((error as Error).message ?? error));
    }
    for (const quad of quads) counter(quad);
    return quads.length;
  }
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    const source = Readable.from(
      (function* () {
        for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield decode(bytes.subarray(at, at + CHUNK_BYTES), true);
        yield decode(new Uint8Array(0), false);
      })(),
      { objectMode: false, encoding: 'utf8' },
    );
    const parser = new StreamParser({ format: 'text/turtle' });
    const fail = (error: unknown) => {
      source.destroy();
      parser.destroy();
      reject(error instanceof RdfParseError ? error : new RdfParseError(String((error as Error).message ?? error)));
    };
    source.on('error', fail);
    parser.on('error', fail);
    parser.on('data', (quad: RdfTerms) => {
      try {
        counter(quad);
        count++;
      } catch (error) {
        fail(error);
      }
    });
    parser.on('end', () => resolve());
    source.pipe(parser);
  });
  return count;
}

interface RdfTerms {
  subject: { termType: string; value: string };
  predicate: { termType: string; value: string };
  object: { termType: string; value: string };
}

/** Checks one triple against the limits and adds its line. */
function tripleCounter(into: Lines) {
  const { maxTriples, maxTermLength } = RDF_LIMITS;
  let count = 0;
  return ({ subject, predicate, object }: RdfTerms) => {
    if (++count > maxTriples)
      throw new RdfParseError(`the document has more than ${maxTriples} triples; the limit is ${maxTriples} (RDF_MAX_TRIPLES)`);
    if (subject.value.length > maxTermLength || predicate.value.length > maxTermLength || object.value.length > maxTermLength) {
      throw new RdfParseError(`a term is longer than ${maxTermLength} characters (RDF_MAX_TERM_LENGTH)`);
    }
    into.add(writer.quadToString(subject as Quad_Subject, predicate as Quad_Predicate, object as Quad_Object));
  };
}

/** The union of several documents' lines as N-Triples. */
export function toNTriples(lines: Lines): { ntriples: string; count: number } {
  return { ntriples: [...lines].join(''), count: lines.size };
}

const DECLARATION = /<!ENTITY\s+([^\s>]+)\s+(?:"([^"]*)"|'([^']*)'|([^>]*))\s*>/g;

function guardEntities(text: string): void {
  if (!text.includes('<!ENTITY')) return;
  const lengths = new Map<string, number>();
  for (const match of text.matchAll(DECLARATION)) {
    const [, name, double, single, other] = match;
    const value = double ?? single;
    if (name === '%' || value === undefined || other !== undefined) throw new RdfParseError('external and parameter entities are not allowed');
    if (/[&%]/.test(value)) throw new RdfParseError(`entity ${name} refers to other entities; nested entities are not allowed`);
    lengths.set(name, value.length);
  }
  let expansion = 0;
  for (const match of text.matchAll(/&([A-Za-z_][\w.-]*);/g)) expansion += lengths.get(match[1]) ?? 0;
  if (expansion > MAX_EXPANSION_FACTOR * text.length) throw new RdfParseError('entity references would expand the document too far');
}
