import { Writer, type Quad } from 'n3';
import type { TriplestoreClient } from '../rdf/triplestore';
import { contentTypeOf, parseRdf, readOntologyFile } from './ontology-files';
import { materialiseOwl2Rl } from './owl2rl';
import { GRAPHS, ONTOLOGY_FILES } from './vocabulary';

export interface InitOptions {
  loadBfoAlignment: boolean;
  reasoning: 'none' | 'owl2rl';
}

export interface LoadedGraph {
  graphUri: string;
  file: string;
  triples: number;
}

export interface GraphLoad {
  graphUri: string;
  file: string;
}

/** What `triplestore init` loads, in order: the core ontology, and with the alignment BFO first, then the mapping. */
export function plannedLoads(loadBfoAlignment: boolean): GraphLoad[] {
  const core = { graphUri: GRAPHS.core, file: ONTOLOGY_FILES.coreTtl };
  if (!loadBfoAlignment) return [core];
  return [core, { graphUri: GRAPHS.bfo, file: ONTOLOGY_FILES.bfo }, { graphUri: GRAPHS.mapping, file: ONTOLOGY_FILES.mappingTtl }];
}

export const INFERRED_FILE = '(inferred: OWL 2 RL subclass and type rules)';

/** Loads the ontologies into the store, each file into its own named graph (idempotent: graphs are replaced).
 * Disabling the alignment removes its graphs, so the store holds exactly what it held before the alignment. */
export async function initTriplestore(client: TriplestoreClient, opts: InitOptions): Promise<LoadedGraph[]> {
  const loads = plannedLoads(opts.loadBfoAlignment);
  const loaded = await loadGraphs(client, loads, opts.reasoning);
  const kept = new Set(loaded.map((graph) => graph.graphUri));
  for (const graphUri of [GRAPHS.bfo, GRAPHS.mapping, GRAPHS.inferred]) if (!kept.has(graphUri)) await client.dropGraph(graphUri);
  return loaded;
}

/** Replaces each graph with its file and, with owl2rl, the inferred graph with what the rules derive from them. */
export async function loadGraphs(client: TriplestoreClient, loads: GraphLoad[], reasoning: InitOptions['reasoning']): Promise<LoadedGraph[]> {
  const loaded: LoadedGraph[] = [];
  const explicit: Quad[] = [];
  for (const { graphUri, file } of loads) {
    const text = await readOntologyFile(file);
    await client.replaceGraph(graphUri, text, contentTypeOf(file));
    loaded.push({ graphUri, file, triples: await client.tripleCount(graphUri) });
    if (reasoning === 'owl2rl') explicit.push(...parseRdf(text, contentTypeOf(file)));
  }
  if (reasoning === 'owl2rl') {
    const inferred = materialiseOwl2Rl(explicit);
    await client.replaceGraph(GRAPHS.inferred, new Writer({ format: 'N-Triples' }).quadsToString(inferred), 'application/n-triples');
    loaded.push({ graphUri: GRAPHS.inferred, file: INFERRED_FILE, triples: await client.tripleCount(GRAPHS.inferred) });
  }
  return loaded;
}
