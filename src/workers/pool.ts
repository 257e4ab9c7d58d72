import { availableParallelism } from 'node:os';
import path from 'node:path';
import Piscina from 'piscina';
import { currentCaller, runAsCaller } from '../lib/caller-context';
import { CpuBudgetExceeded, CpuPoolBusy } from '../lib/cpu-errors';
import type { XmlLimits } from '../xml/safe-parse';
import type { RdfLimits } from '../rdf/rdf-limits';
import type { CsvLimits } from '../domain/csv';
import { unwrap, type Outcome } from './outcome';

/** Settings every worker thread applies when it starts (workerData). */
export interface ThreadSettings {
  /** The nice value each pool thread gives itself (CPU_POOL_NICE, 0..19; 0 keeps the process's priority). */
  nice: number;
  xml: XmlLimits;
  rdf: RdfLimits;
  csv: CsvLimits;
}

export interface CpuPoolSettings {
  /** 0: one per available core, at least one. */
  threads: number;
  taskBudgetMs: number;
  maxQueue: number;
  /** Tasks one caller may have waiting (CPU_POOL_MAX_QUEUE_PER_CALLER); more are refused with 429. */
  maxQueuePerCaller: number;
  /** A task whose input holds this many bytes or more is large (CPU_POOL_LARGE_TASK_BYTES): large tasks may
   * hold every thread but one, so a small task never waits behind megabyte-sized ones. */
  largeTaskBytes: number;
  maxMemoryMb: number;
  thread: ThreadSettings;
}

/** A task module in this folder (`<kind>.task.ts`), loaded by the worker threads from the build. */
export type TaskModule = 'validation' | 'xml' | 'rdf' | 'vaas' | 'sign' | 'csv' | 'package' | 'body' | 'assembly';

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

/** About how many bytes a task's input holds: its strings and byte arrays, two levels deep (a task input is a
 * document, or an object of documents or of files), counted until `enough`. */
function inputBytes(input: unknown, enough: number, depth = 0): number {
  if (typeof input === 'string') return input.length;
  if (input instanceof Uint8Array) return input.byteLength;
  if (depth > 2 || input === null || typeof input !== 'object') return 0;
  // A buffer handed over with piscina's `move` is wrapped: its bytes are behind the wrapper's value symbol.
  if (Piscina.valueSymbol in input) return inputBytes((input as Record<symbol, unknown>)[Piscina.valueSymbol], enough, depth);
  let total = 0;
  for (const value of Array.isArray(input) ? input : Object.values(input)) {
    total += inputBytes(value, enough - total, depth + 1);
    if (total >= enough) break;
  }
  return total;
}

/**
 * Which idle thread takes a task: one at random (null when none is idle: the task waits in piscina until one is).
 * Each thread keeps its own compiled schemas. Always the first idle thread (piscina's default) leaves the others
 * cold while the pool is quiet, so a caller's schema is first compiled on them under load, when the compile costs
 * that caller hundreds of milliseconds behind busy threads (issue 30: the victim's validation at 300 ms); taking
 * turns in a fixed order sends every retry that brings a missing schema's documents to the other thread, where it
 * is already compiled. At random, a schema in use is compiled on every thread within a few quiet requests.
 */
function anyIdle<W extends { currentUsage: number }>(workers: W[]): W | null {
  const idle = workers.filter((worker) => worker.currentUsage === 0);
  return idle.length ? idle[Math.floor(Math.random() * idle.length)] : null;
}

/** Work outside any request (jobs) shares one lane. */
const BACKGROUND = 'background';

/** How fast a caller's recent thread time is forgotten: it halves every this many milliseconds. */
const USAGE_HALF_LIFE_MS = 2_000;

/** What the fair queue knows of a caller: when it last had a task started (a serial number), its thread time,
 * decayed (`ms` as of `at`), and the tasks it has running (their start times summed). */
interface Usage {
  served: number;
  ms: number;
  at: number;
  running: number;
  startedSum: number;
}

const decayed = (usage: Usage, now: number) => usage.ms * 2 ** (-(now - usage.at) / USAGE_HALF_LIFE_MS);

/** Runs `work` (the rest of a request or socket operation) as `caller`: its CPU tasks queue in that caller's lane. */
export function runAsCpuCaller<T>(caller: string, work: () => T): T {
  return runAsCaller(caller, work);
}

/**
 * The worker-thread pool for CPU-bound work, so the event loop only routes, authenticates and talks to Postgres.
 * Tasks wait in a fair queue, one lane per caller, weighted by use: the next task is the first of the caller that
 * has held the threads least lately (its thread time, halving every USAGE_HALF_LIFE_MS, its running tasks counted
 * as they run; callers alike served in turn), so a caller flooding the pool waits behind its own tasks while a
 * light caller's task (a paid validation of a millisecond) is the next to run, ahead of every heavy one; a caller
 * with CPU_POOL_MAX_QUEUE_PER_CALLER tasks waiting is refused (429), a full queue (CPU_POOL_MAX_QUEUE) too (503 / Interface A 429). Tasks go to the
 * threads only when one is free, so a task's time budget starts when it starts: past it the thread is terminated
 * (piscina replaces it) and the caller gets CpuBudgetExceeded.
 */
export class CpuPool {
  /** Started on first use, so processes that never parse (CLI, most tests) start no threads. */
  private started: Piscina | null = null;
  readonly budgetMs: number;
  readonly threads: number;
  /** Waiting tasks by caller; the lane of the caller with the least recent thread time goes next (`dispatch`). */
  private readonly lanes = new Map<string, Array<{ start: () => void; large: boolean }>>();
  /** Each caller's turns and recent thread time (the fair queue's weight), in serving order; tasks that never
   * waited included. */
  private readonly usage = new Map<string, Usage>();
  private serial = 0;
  private waiting = 0;
  private running = 0;
  private runningLarge = 0;

  constructor(private readonly settings: CpuPoolSettings) {
    this.threads = settings.threads > 0 ? settings.threads : Math.max(1, availableParallelism());
    this.budgetMs = settings.taskBudgetMs;
  }

  private get piscina(): Piscina {
    this.started ??= new Piscina({
      minThreads: this.threads,
      maxThreads: this.threads,
      // Tasks wait in this class's fair queue and reach piscina only when a thread is free.
      maxQueue: 'auto',
      idleTimeout: 60_000,
      workerData: this.settings.thread,
      resourceLimits: { maxOldGenerationSizeMb: this.settings.maxMemoryMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
      loadBalancer: (_task, workers) => anyIdle(workers),
    });
    return this.started;
  }

  /** Runs `name` of a task module within the budget; a domain error thrown in the thread is rethrown here. */
  async run<I, O>(module: TaskModule, name: string, input: I, budgetMs = this.budgetMs): Promise<O> {
    const large = inputBytes(input, this.settings.largeTaskBytes) >= this.settings.largeTaskBytes;
    const caller = currentCaller() ?? BACKGROUND;
    await this.turn(caller, budgetMs, large);
    const started = this.startedTask(caller);
    try {
      return await this.runNow<O>(module, name, input, budgetMs);
    } finally {
      this.running--;
      if (large) this.runningLarge--;
      this.finished(caller, started);
      this.dispatch();
    }
  }

  /** Large tasks may hold every thread but one (all of them with a single thread). */
  private mayStart(large: boolean): boolean {
    return this.running < this.threads && (!large || this.runningLarge < Math.max(1, this.threads - 1));
  }

  /** Resolves when the caller's task may start (a thread is free and it is the caller's turn). */
  private turn(caller: string, budgetMs: number, large: boolean): Promise<void> {
    if (this.waiting === 0 && this.mayStart(large)) {
      this.begin(caller, large);
      return Promise.resolve();
    }
    const lane = this.lanes.get(caller);
    const retryAfter = Math.max(1, Math.ceil(((lane?.length ?? 0) + 1) * (budgetMs / 1000 / this.threads)));
    if (lane && lane.length >= this.settings.maxQueuePerCaller) return Promise.reject(new CpuPoolBusy(Math.min(retryAfter, 60), true));
    // A full queue refuses the callers already waiting in it; one with nothing waiting still gets its turn (up to
    // twice the depth in all), so callers flooding the queue cannot refuse everyone else.
    if ((this.waiting >= this.settings.maxQueue && lane) || this.waiting >= 2 * this.settings.maxQueue)
      return Promise.reject(new CpuPoolBusy(Math.max(1, Math.ceil(budgetMs / 1000))));
    this.waiting++;
    const queued = new Promise<void>((resolve) => {
      if (lane) lane.push({ start: resolve, large });
      else this.lanes.set(caller, [{ start: resolve, large }]);
    });
    // A small task may start at once on the thread kept from large ones, past the large tasks waiting.
    this.dispatch();
    return queued;
  }

  /** Starts waiting tasks while threads are free: each time the first task of the caller with the least recent
   * thread time, the one served least recently among equals, of those whose first task may start (a large one
   * only while a thread stays free for small ones). */
  private dispatch(): void {
    while (this.running < this.threads && this.waiting > 0) {
      const now = performance.now();
      let next: string | null = null;
      let nextUse = 0;
      for (const [caller, lane] of this.lanes) {
        if (!this.mayStart(lane[0].large)) continue;
        const use = this.recentUse(caller, now);
        if (next === null || use < nextUse || (use === nextUse && this.servedAt(caller) < this.servedAt(next))) {
          next = caller;
          nextUse = use;
        }
      }
      if (next === null) return;
      const lane = this.lanes.get(next)!;
      const { start, large } = lane.shift()!;
      if (!lane.length) this.lanes.delete(next);
      this.waiting--;
      this.begin(next, large);
      start();
    }
  }

  private begin(caller: string, large: boolean): void {
    this.running++;
    if (large) this.runningLarge++;
    const usage = this.usage.get(caller) ?? { served: 0, ms: 0, at: performance.now(), running: 0, startedSum: 0 };
    usage.served = ++this.serial;
    this.usage.delete(caller);
    this.usage.set(caller, usage);
    // Forget the oldest callers with nothing waiting or running (the map is in serving order).
    for (const [old, { running }] of this.usage) {
      if (this.usage.size <= 1024) break;
      if (!this.lanes.has(old) && !running) this.usage.delete(old);
    }
  }

  private servedAt(caller: string): number {
    return this.usage.get(caller)?.served ?? -1;
  }

  /** A caller's task starts: it counts toward the caller's use while it runs. Returns its start time. */
  private startedTask(caller: string): number {
    const now = performance.now();
    let usage = this.usage.get(caller);
    if (!usage) this.usage.set(caller, (usage = { served: this.serial, ms: 0, at: now, running: 0, startedSum: 0 }));
    usage.running++;
    usage.startedSum += now;
    return now;
  }

  /** A caller's task is over: its thread time joins the caller's recent use. */
  private finished(caller: string, started: number): void {
    const usage = this.usage.get(caller);
    if (!usage) return;
    const now = performance.now();
    usage.ms = decayed(usage, now) + (now - started);
    usage.at = now;
    usage.running--;
    usage.startedSum = usage.running === 0 ? 0 : usage.startedSum - started;
  }

  /** A caller's recent thread time: its finished tasks', decayed, and its running tasks' so far. */
  private recentUse(caller: string, now: number): number {
    const usage = this.usage.get(caller);
    return usage ? decayed(usage, now) + usage.running * now - usage.startedSum : 0;
  }

  private async runNow<O>(module: TaskModule, name: string, input: unknown, budgetMs: number): Promise<O> {
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
    return pool && { threads: pool.threads.length, queued: this.waiting + pool.queueSize, completed: pool.completed, utilization: pool.utilization };
  }

  async close(): Promise<void> {
    await this.started?.destroy();
    this.started = null;
  }
}
