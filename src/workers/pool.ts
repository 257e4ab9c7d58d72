import { availableParallelism } from 'node:os';
import path from 'node:path';
import Piscina from 'piscina';
import { CpuBudgetExceeded, CpuPoolBusy } from '../lib/cpu-errors';
import type { XmlLimits } from '../xml/safe-parse';
import type { RdfLimits } from '../rdf/rdf-parse';
import type { CsvLimits } from '../domain/csv';
import { unwrap, type Outcome } from './outcome';

/** Settings every worker thread applies when it starts (workerData). */
export interface ThreadSettings {
  xml: XmlLimits;
  rdf: RdfLimits;
  csv: CsvLimits;
}

export interface CpuPoolSettings {
  /** 0: one per available core, at least one. */
  threads: number;
  taskBudgetMs: number;
  maxQueue: number;
  maxMemoryMb: number;
  thread: ThreadSettings;
}

/** A task module in this folder (`<kind>.task.ts`), loaded by the worker threads from the build. */
export type TaskModule = 'validation' | 'xml' | 'rdf' | 'vaas' | 'csv' | 'package' | 'body';

/**
 * Each thread's young generation (V8's default sizes it from the old generation's limit, tens of MB a thread). A
 * task's garbage is short-lived and small (a validation: a few hundred KB), so a small nursery is swept as cheaply
 * and keeps the service's RSS down: about 315 MB against 275 MB under validate/xml load with two threads.
 */
const THREAD_YOUNG_GENERATION_MB = 8;

/** The compiled module, also when this file runs from the TypeScript sources (tests): threads load JavaScript. */
function taskFile(module: TaskModule): string {
  const dir = __filename.endsWith('.ts') ? path.resolve(__dirname, '../../dist/src/workers') : __dirname;
  return path.join(dir, `${module}.task.js`);
}

/**
 * The worker-thread pool for CPU-bound work, so the event loop only routes, authenticates and talks to Postgres.
 * Each task has a time budget: past it the thread is terminated (piscina replaces it) and the caller gets
 * CpuBudgetExceeded; a full queue answers CpuPoolBusy at once instead of waiting.
 */
export class CpuPool {
  /** Started on first use, so processes that never parse (CLI, most tests) start no threads. */
  private started: Piscina | null = null;
  readonly budgetMs: number;
  readonly threads: number;

  constructor(private readonly settings: CpuPoolSettings) {
    this.threads = settings.threads > 0 ? settings.threads : Math.max(1, availableParallelism());
    this.budgetMs = settings.taskBudgetMs;
  }

  private get piscina(): Piscina {
    this.started ??= new Piscina({
      minThreads: this.threads,
      maxThreads: this.threads,
      maxQueue: this.settings.maxQueue,
      idleTimeout: 60_000,
      workerData: this.settings.thread,
      resourceLimits: { maxOldGenerationSizeMb: this.settings.maxMemoryMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    });
    return this.started;
  }

  /** Runs `name` of a task module within the budget; a domain error thrown in the thread is rethrown here. */
  async run<I, O>(module: TaskModule, name: string, input: I, budgetMs = this.budgetMs): Promise<O> {
    if (this.piscina.queueSize >= this.piscina.options.maxQueue) throw new CpuPoolBusy(Math.max(1, Math.ceil(budgetMs / 1000)));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), budgetMs);
    try {
      return unwrap((await this.piscina.run(input, { filename: taskFile(module), name, signal: controller.signal })) as Outcome<O>);
    } catch (error) {
      if (controller.signal.aborted) throw new CpuBudgetExceeded(`${module}.${name}`, budgetMs);
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new CpuBudgetExceeded(`${module}.${name} (memory)`, budgetMs);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts every thread and warms its validation path (libxml2 loaded and tiered up, the hot functions
   * optimised: src/workers/validation.task.ts `warm`), so that the first seconds under load run at full speed. One task
   * per thread, all at once: each idle thread takes one. */
  async warm(): Promise<void> {
    await Promise.all(Array.from({ length: this.threads }, () => this.run<null, number>('validation', 'warm', null)));
  }

  /** For /metrics: threads, waiting tasks, tasks done and utilisation (0..1); null until first used. */
  get stats(): { threads: number; queued: number; completed: number; utilization: number } | null {
    const pool = this.started;
    return pool && { threads: pool.threads.length, queued: pool.queueSize, completed: pool.completed, utilization: pool.utilization };
  }

  async close(): Promise<void> {
    await this.started?.destroy();
    this.started = null;
  }
}
