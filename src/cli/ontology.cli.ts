import type { Command } from 'commander';
import { output, withServices } from '../cli-support';
import { loadSettings, type Settings } from '../config';
import { initTriplestore, type LoadedGraph } from '../ontology/init';
import { formatChecksTable, verifyAlignment } from '../ontology/verify';
import { createTriplestoreClient } from '../rdf/config';
import { AppGraphsClient } from './app-graphs-client';

const STORE_NOTES = {
  embedded: 'embedded store: written to its durable copy in Postgres, which the service loads at start',
  'graph-store': 'external store (Graph Store Protocol)',
  graphdb: 'external store (GraphDB)',
} as const;

/** The configured store: the external one when TRIPLESTORE_URL is set, the embedded one's durable copy otherwise. */
async function loadOntologies(settings: Settings): Promise<{ store: keyof typeof STORE_NOTES; graphs: LoadedGraph[] }> {
  const options = { loadBfoAlignment: settings.loadBfoAlignment, reasoning: settings.reasoning };
  const external = createTriplestoreClient(settings.triplestore);
  if (external) return { store: external.kind, graphs: await initTriplestore(external, options) };
  return { store: 'embedded', graphs: await withServices((s) => initTriplestore(new AppGraphsClient(s.db), options)) };
}

function graphsTable(graphs: LoadedGraph[]): string {
  const rows = [['Graph', 'File', 'Triples'], ...graphs.map((graph) => [graph.graphUri, graph.file, String(graph.triples)])];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 2 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join(' | ');
  return [line(rows[0]), widths.map((width) => '-'.repeat(width)).join('-|-'), ...rows.slice(1).map(line)].join('\n');
}

/** `triplestore init` and `ontology verify`: the SDC4 ontologies and their BFO alignment. */
export function registerOntologyCommands(program: Command): void {
  program
    .command('triplestore')
    .description('manage the triplestore')
    .command('init')
    .description(
      'load the SDC4 core ontology (and with LOAD_BFO_ALIGNMENT, BFO then the mapping) into the configured store, each file in its own named graph; safe to re-run',
    )
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const settings = loadSettings();
      const { store, graphs } = await loadOntologies(settings);
      output(
        !!opts.json,
        {
          store,
          load_bfo_alignment: settings.loadBfoAlignment,
          reasoning: settings.reasoning,
          graphs: graphs.map((graph) => ({ graph_uri: graph.graphUri, file: graph.file, triples: graph.triples })),
        },
        `${STORE_NOTES[store]}; LOAD_BFO_ALIGNMENT=${settings.loadBfoAlignment}, REASONING=${settings.reasoning}\n${graphsTable(graphs)}`,
      );
    });

  program
    .command('ontology')
    .description('the SDC4-BFO ontology alignment')
    .command('verify')
    .description('check the shipped ontologies with Konclude and SPARQL; exits non-zero when a check fails')
    .option('--konclude <binary>', 'the Konclude executable', 'Konclude')
    .option('--json', 'print one JSON object')
    .action(async (opts: { konclude: string; json?: boolean }) => {
      const { ok, checks } = await verifyAlignment({ konclude: opts.konclude });
      const failed = checks.filter((check) => !check.passed).length;
      output(
        !!opts.json,
        { ok, checks },
        `${formatChecksTable(checks)}\n${ok ? 'all checks passed' : `${failed} of ${checks.length} checks failed`}`,
      );
      if (!ok) process.exitCode = 1;
    });
}
