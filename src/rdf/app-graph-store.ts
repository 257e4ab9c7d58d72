import type { DataSource } from 'typeorm';
import { appGraphs, appGraphsChangedSince, saveAppGraph } from '../db/queries/app-graphs.sql';
import { query } from '../db/sql';
import type { Queryable } from '../db/transaction';
import { SparqlStoreReset, SparqlThread, type SparqlBudget } from './sparql-thread';

type GraphSource = 'instance' | 'schema';

export interface GraphRecord {
  graphUri: string;
  source: GraphSource;
  /** The graph's triples as Turtle (an instance's compact Turtle, a schema's N-Triples, which is Turtle too), read
   * as Turtle by the embedded store and sent as Turtle to every Graph Store endpoint. The column keeps its first
   * name, `ntriples`. */
  ntriples: string;
  tripleCount: number;
  /** The organisation whose key wrote it (counted toward its APP_MAX_TRIPLES_PER_ORGANIZATION); none from the CLI. */
  organization?: string;
}

/** Upsert of a graph's durable copy; the revision moves so every process's embedded store reloads it. */
export async function saveGraph(on: Queryable, graph: GraphRecord): Promise<void> {
  await query(on, saveAppGraph(graph));
}

/** The application's embedded SPARQL store (oxigraph, in memory, in a worker thread of its own with a time and
 * row budget). Postgres holds the durable copy in `app_graphs`; before each query the store loads the graphs
 * written since it last looked, so it is rebuilt at start (and after a query past its budget replaced the
 * thread) and stays current with writes from other processes. */
export class AppGraphStore {
  private readonly store: SparqlThread;
  /** Every graph at or below this revision is loaded and settled. */
  private watermark = 0;
  /** Revisions loaded above the watermark (a transaction may still commit a lower revision there). */
  private readonly loaded = new Map<string, number>();
  private refreshing: Promise<number> | null = null;

  constructor(
    private readonly db: DataSource,
    budget: SparqlBudget = { timeoutMs: 5_000, maxRows: 10_000 },
  ) {
    this.store = new SparqlThread(budget, () => {
      this.watermark = 0;
      this.loaded.clear();
    });
  }

  /** Loads what changed; resolves with the store generation it is current for. */
  async refresh(): Promise<number> {
    this.refreshing ??= this.loadChanges().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Runs a read-only query over the union of all graphs; `resultsFormat` is a media type oxigraph serialises.
   * The query runs only on the store its graphs were loaded into: if the thread was replaced meanwhile (another
   * query past its budget), the store is reloaded once (within the budget) and the query runs then, else it
   * fails with SparqlStoreReset (503) rather than answer from an empty store. */
  async query(sparql: string, resultsFormat: string): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.store.query(sparql, resultsFormat, await this.refresh());
      } catch (error) {
        if (!(error instanceof SparqlStoreReset) || attempt >= 2) throw error;
      }
    }
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  /** Revisions come from a sequence, so one can commit after a higher one was seen: rows written in the last
   * minute stay above the watermark and are rechecked on every refresh. */
  private async loadChanges(): Promise<number> {
    const generation = this.store.generation;
    const current = () => {
      if (this.store.generation !== generation) throw new SparqlStoreReset();
    };
    const changed = await query(this.db, appGraphsChangedSince(this.watermark, SETTLE_SECONDS));
    const wanted = changed.filter((row) => this.loaded.get(row.graph_uri) !== Number(row.revision));
    for (let i = 0; i < wanted.length; i += LOAD_BATCH) {
      const batch = wanted.slice(i, i + LOAD_BATCH).map((row) => row.graph_uri);
      const graphs = await query(this.db, appGraphs(batch));
      current();
      await this.store.load(
        graphs.map((row) => ({ graphUri: row.graph_uri, turtle: row.ntriples })),
        generation,
      );
      current();
      for (const row of graphs) this.loaded.set(row.graph_uri, Number(row.revision));
    }
    current();
    for (const row of changed) {
      if (!row.settled) break;
      this.watermark = Number(row.revision);
      this.loaded.delete(row.graph_uri);
    }
    return generation;
  }
}

const SETTLE_SECONDS = 60;
const LOAD_BATCH = 500;
