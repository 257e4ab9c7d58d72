/** Bounds on an uploaded RDF document (README: Configuration, RDF_MAX_*), each refused with its setting named. Apart
 * from the parser (src/rdf/rdf-parse.ts) so that every pool thread applies them without loading oxigraph and n3's
 * parsers, which a thread that never parses RDF does not need (about 5 MB each: src/workers/thread-setup.ts). */
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
