import { defaultGraph, parse, Store, type Quad } from 'oxigraph';

export type RdfFormat = 'text/turtle' | 'application/rdf+xml';

export class RdfParseError extends Error {}

/** Bounds on an uploaded RDF document (README: Configuration, RDF_MAX_*), each refused with its setting named. */
export interface RdfLimits {
  maxTriples: number;
  /** Characters of one IRI or literal. */
  maxTermLength: number;
}

/** The limits in force in this thread: the defaults until the service (or a worker thread) applies its settings. */
export const RDF_LIMITS: RdfLimits = { maxTriples: 200_000, maxTermLength: 65_536 };

export function applyRdfLimits(limits: Partial<RdfLimits>): void {
  Object.assign(RDF_LIMITS, limits);
}

/** Entity expansion an RDF/XML document may cause, relative to its own size (billion laughs guard). */
const MAX_EXPANSION_FACTOR = 4;

/** Parses Turtle or RDF/XML bytes (strict UTF-8) into triples. RDF/XML may declare internal entities (ontology
 * editors write `&owl;`-style abbreviations) but not external or parameter entities, nor entities built from
 * other entities, nor references that would expand the document beyond a few times its size. */
export function parseRdf(bytes: Uint8Array, format: RdfFormat): Quad[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new RdfParseError('the file is not valid UTF-8');
  }
  if (format === 'application/rdf+xml') guardEntities(text);
  let quads: Quad[];
  try {
    quads = parse(text, { format });
  } catch (error) {
    throw new RdfParseError(String((error as Error).message ?? error));
  }
  checkLimits(quads);
  return quads;
}

function checkLimits(quads: Quad[]): void {
  const { maxTriples, maxTermLength } = RDF_LIMITS;
  if (quads.length > maxTriples) throw new RdfParseError(`the document has ${quads.length} triples; the limit is ${maxTriples} (RDF_MAX_TRIPLES)`);
  for (const { subject, predicate, object } of quads) {
    if (subject.value.length > maxTermLength || predicate.value.length > maxTermLength || object.value.length > maxTermLength) {
      throw new RdfParseError(`a term is longer than ${maxTermLength} characters (RDF_MAX_TERM_LENGTH)`);
    }
  }
}

/** The union of several documents' triples as N-Triples, duplicates removed. */
export function toNTriples(documents: Quad[][]): { ntriples: string; count: number } {
  const store = new Store();
  for (const quads of documents) for (const quad of quads) store.add(quad);
  return { ntriples: store.dump({ format: 'application/n-triples', from_graph_name: defaultGraph() }), count: store.size };
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
