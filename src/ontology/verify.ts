import type { Quad } from 'n3';
import { EmbeddedTriplestore } from '../rdf/embedded-store';
import { writeTurtle } from '../rdf/turtle-writer';
import { namedNode, quad } from '../rdf/terms';
import type { TriplestoreClient } from '../rdf/triplestore';
import { initTriplestore, loadGraphs, plannedLoads } from './init';
import { reasonWithKonclude, type KoncludeOptions } from './konclude';
import { ALL_PREFIXES } from './ontology-builder';
import { contentTypeOf, parseRdf, readOntologyFile } from './ontology-files';
import { BFO_PROCESS, GRAPHS, NS, ONTOLOGY_FILES } from './vocabulary';

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

export const CHECK_NAMES = {
  reasoner: 'OWL reasoner (Konclude): core + BFO + mapping consistent, no unsatisfiable class',
  sparql: 'SPARQL (OWL 2 RL): subclasses of BFO_0000031 are all data-modelling classes',
  withoutMapping: 'Without the mapping no BFO type is inferred',
  negativeControl: 'Negative control: CMC under BFO process makes CMC and its subclasses unsatisfiable',
} as const;

export const SUBCLASSES_OF_GDC_QUERY = `PREFIX rdfs: <${NS.rdfs}>
PREFIX obo: <${NS.obo}>
SELECT ?c WHERE { ?c rdfs:subClassOf obo:BFO_0000031 }`;

/** The data-modelling classes: every sdc4 class the core ontology declares. */
export async function sdc4Classes(client: TriplestoreClient): Promise<string[]> {
  const rows = await client.select(
    `SELECT DISTINCT ?c WHERE { GRAPH <${GRAPHS.core}> { ?c a <${NS.owl}Class> } FILTER(STRSTARTS(STR(?c), "${NS.sdc4}")) }`,
  );
  return rows.map((row) => row.c).sort();
}

/** sdc4 classes or individuals that have a BFO class as superclass or type. */
export async function bfoTypedSdc4Terms(client: TriplestoreClient): Promise<string[]> {
  const rows = await client.select(`SELECT DISTINCT ?x WHERE {
  { ?x <${NS.rdfs}subClassOf> ?bfo } UNION { ?x a ?bfo }
  FILTER(STRSTARTS(STR(?x), "${NS.sdc4}") && STRSTARTS(STR(?bfo), "${NS.obo}BFO_"))
}`);
  return rows.map((row) => row.x).sort();
}

async function combinedTurtle(extra: Quad[] = []): Promise<string> {
  const quads: Quad[] = [];
  for (const file of [ONTOLOGY_FILES.coreTtl, ONTOLOGY_FILES.bfo, ONTOLOGY_FILES.mappingTtl]) {
    quads.push(...parseRdf(await readOntologyFile(file), contentTypeOf(file)));
  }
  return writeTurtle([...quads, ...extra], ALL_PREFIXES);
}

async function reasonerCheck(options: KoncludeOptions): Promise<Check> {
  const name = CHECK_NAMES.reasoner;
  const started = Date.now();
  const report = await reasonWithKonclude(await combinedTurtle(), options);
  const passed = report.consistent && report.unsatisfiable.length === 0;
  const listed = report.unsatisfiable.slice(0, 5).join(', ');
  return {
    name,
    passed,
    detail: `${report.consistent ? 'consistent' : 'INCONSISTENT'}; ${report.unsatisfiable.length} unsatisfiable classes${listed ? ` (${listed})` : ''}; ${Date.now() - started} ms`,
  };
}

async function sparqlCheck(): Promise<Check> {
  const name = CHECK_NAMES.sparql;
  const store = new EmbeddedTriplestore();
  await initTriplestore(store, { loadBfoAlignment: true, reasoning: 'owl2rl' });
  const expected = await sdc4Classes(store);
  const found = new Set((await store.select(SUBCLASSES_OF_GDC_QUERY)).map((row) => row.c));
  const missing = expected.filter((iri) => !found.has(iri));
  const passed = expected.length > 0 && missing.length === 0;
  return {
    name,
    passed,
    detail: `${expected.length - missing.length} of ${expected.length} sdc4 classes returned${missing.length ? `; missing ${missing.slice(0, 5).join(', ')}` : ''}`,
  };
}

async function withoutMappingCheck(): Promise<Check> {
  const name = CHECK_NAMES.withoutMapping;
  const store = new EmbeddedTriplestore();
  const loads = plannedLoads(true).filter((load) => load.graphUri !== GRAPHS.mapping);
  await loadGraphs(store, loads, 'owl2rl');
  const typed = await bfoTypedSdc4Terms(store);
  return {
    name,
    passed: typed.length === 0,
    detail: `${typed.length} sdc4 classes or individuals with a BFO superclass or type${typed.length ? `: ${typed.slice(0, 5).join(', ')}` : ''}`,
  };
}

/** The same reasoner pipeline with CMC also placed under BFO process (an occurrent, disjoint with continuants):
 * CMC and all of its subclasses must come out unsatisfiable, or the reasoner check could not fail. */
async function negativeControlCheck(options: KoncludeOptions): Promise<Check> {
  const name = CHECK_NAMES.negativeControl;
  const wrongAxiom = quad(namedNode(`${NS.sdc4}CMC`), namedNode(`${NS.rdfs}subClassOf`), namedNode(BFO_PROCESS));
  const store = new EmbeddedTriplestore();
  await initTriplestore(store, { loadBfoAlignment: false, reasoning: 'none' });
  const cmcFamily = await store.select(`SELECT DISTINCT ?c WHERE { ?c <${NS.rdfs}subClassOf>* <${NS.sdc4}CMC> }`);
  const report = await reasonWithKonclude(await combinedTurtle([wrongAxiom]), options);
  const passed = report.consistent && report.unsatisfiable.length === cmcFamily.length && report.unsatisfiable.includes(`${NS.sdc4}CMC`);
  return { name, passed, detail: `${report.unsatisfiable.length} unsatisfiable classes (expected ${cmcFamily.length}: CMC and its subclasses)` };
}

async function guarded(name: string, check: () => Promise<Check>): Promise<Check> {
  try {
    return await check();
  } catch (error) {
    return { name, passed: false, detail: `error: ${(error as Error).message}` };
  }
}

/** The alignment's verification rules, run against the shipped files. */
export async function verifyAlignment(opts: KoncludeOptions = {}): Promise<{ checks: Check[]; ok: boolean }> {
  const checks = [
    await guarded(CHECK_NAMES.reasoner, () => reasonerCheck(opts)),
    await guarded(CHECK_NAMES.sparql, sparqlCheck),
    await guarded(CHECK_NAMES.withoutMapping, withoutMappingCheck),
    await guarded(CHECK_NAMES.negativeControl, () => negativeControlCheck(opts)),
  ];
  return { checks, ok: checks.every((check) => check.passed) };
}

export function formatChecksTable(checks: Check[]): string {
  const rows = checks.map((check, index) => [`${index + 1}`, check.passed ? 'PASS' : 'FAIL', check.name, check.detail]);
  const header = ['#', 'Result', 'Check', 'Detail'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('-|-'), ...rows.map(line)].join('\n');
}
