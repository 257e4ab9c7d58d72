import path from 'node:path';
import { Worker } from 'node:worker_threads';

export type SparqlRequest =
  | { type: 'load'; id: number; graphs: Array<{ graphUri: string; turtle: string }> }
  | { type: 'query'; id: number; sparql: string; format: string; maxRows: number };

export type SparqlReply = { id: number; ok: true; body: string } | { id: number; ok: false; message: string; tooManyRows?: number };

export interface SparqlBudget {
  timeoutMs: number;
  maxRows: number;
  /** The nice value the store's thread gives itself (CPU_POOL_NICE): a query or a reload runs below the event loop.
   * Unset: the process's priority. */
  nice?: number;
}

/** The query ran past SPARQL_TIMEOUT_MS (the thread was terminated) or matched more than SPARQL_MAX_ROWS. */
export class SparqlBudgetError extends Error {
  constructor(
    message: string,
    readonly limit: 'SPARQL_TIMEOUT_MS' | 'SPARQL_MAX_ROWS',
  ) {
    super(message);
    this.name = 'SparqlBudgetError';
  }
}

/** Thrown by a query the store refused (syntax, update, SERVICE). */
class SparqlQueryError extends Error {}

/** The store's thread was replaced (a query past its budget) after this request was queued, or reloading it took
 * longer than the budget: the request did not run, as it would have seen an empty or partial store. */
export class SparqlStoreReset extends Error {
  constructor(message = 'The SPARQL store was reset while this request waited; it did not run.') {
    super(message);
    this.name = 'SparqlStoreReset';
  }
}

function threadFile(): string {
  const dir = __filename.endsWith('.ts') ? path.resolve(__dirname, '../../dist/src/rdf') : __dirname;
  return path.join(dir, 'sparql.thread.js');
}

/**
 * The embedded store in a worker thread of its own, one request at a time. Past its budget a query's thread is
 * terminated and replaced by an empty one; `onReset` tells the owner to load every graph again, and `generation`
 * counts the replacements: a request made for an earlier generation is refused with SparqlStoreReset when its
 * turn comes, so no query queued before a reset runs on the new, empty store.
 */
export class SparqlThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: SparqlReply) => void; reject: (error: Error) => void }>();
  private queue: Promise<unknown> = Promise.resolve();
  /** How many times the thread was replaced. */
  generation = 0;

  constructor(
    private readonly budget: SparqlBudget,
    private readonly onReset: () => void,
  ) {}

  /** Loads graphs into the store of `generation`, within the query budget (SPARQL_TIMEOUT_MS): a reload that
   * takes longer replaces the thread and fails with SparqlStoreReset. */
  load(graphs: Array<{ graphUri: string; turtle: string }>, generation = this.generation): Promise<void> {
    return this.serial(async () => {
      if (generation !== this.generation) throw new SparqlStoreReset();
      let reply: SparqlReply;
      try {
        reply = await this.send({ type: 'load', id: this.nextId++, graphs }, this.budget.timeoutMs);
      } catch (error) {
        if (error instanceof SparqlBudgetError)
          throw new SparqlStoreReset(`Reloading the SPARQL store took longer than ${this.budget.timeoutMs} ms.`);
        throw error;
      }
      if (!reply.ok) throw new Error(reply.message);
    });
  }

  /** Runs a query on the store of `generation` (the one its graphs were loaded into). */
  query(sparql: string, format: string, generation = this.generation): Promise<string> {
    return this.serial(async () => {
      if (generation !== this.generation) throw new SparqlStoreReset();
      const { timeoutMs, maxRows } = this.budget;
      const reply = await this.send({ type: 'query', id: this.nextId++, sparql, format, maxRows }, timeoutMs);
      if (reply.ok) return reply.body;
      if (reply.tooManyRows !== undefined) {
        throw new SparqlBudgetError(`The query matched more than ${maxRows} results, the limit (SPARQL_MAX_ROWS).`, 'SPARQL_MAX_ROWS');
      }
      throw new SparqlQueryError(reply.message);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  /** One request at a time: the thread answers in order, and a timeout must not cut another request off. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(threadFile(), { workerData: { nice: this.budget.nice ?? 0 } });
    worker.on('message', (reply: SparqlReply) => {
      this.pending.get(reply.id)?.resolve(reply);
      this.pending.delete(reply.id);
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', () => this.fail(worker, new Error('the SPARQL thread stopped')));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private reset(): void {
    this.worker = null;
    this.generation++;
    this.onReset();
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.reset();
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  private send(request: SparqlRequest, timeoutMs: number | null): Promise<SparqlReply> {
    const worker = this.thread();
    worker.ref();
    return new Promise<SparqlReply>((resolve, reject) => {
      const timer =
        timeoutMs === null
          ? null
          : setTimeout(() => {
              this.pending.delete(request.id);
              if (this.worker === worker) this.reset();
              void worker.terminate();
              reject(new SparqlBudgetError(`The query ran longer than ${timeoutMs} ms (SPARQL_TIMEOUT_MS).`, 'SPARQL_TIMEOUT_MS'));
            }, timeoutMs);
      this.pending.set(request.id, {
        resolve: (reply) => {
          if (timer) clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          if (timer) clearTimeout(timer);
          reject(error);
        },
      });
      worker.postMessage(request);
    }).finally(() => {
      if (this.worker === worker && this.pending.size === 0) worker.unref();
    });
  }
}
