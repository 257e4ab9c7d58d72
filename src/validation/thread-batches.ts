import { CpuPoolBusy } from '../lib/cpu-errors';
import type { CpuPool } from '../workers/pool';
import { unwrap, type Outcome } from '../workers/outcome';
import type { BatchedTaskName, ThreadBatch } from '../workers/validation.task';

/** The most validations one pool task carries, and the most bytes of instances: a batch holds a thread for a few
 * milliseconds at most, so a caller's batch delays another caller's turn no more than a single large task. */
const MAX_TASKS = 8;
const MAX_BYTES = 64 * 1024;
/** A larger instance is sent alone, as before. */
const MAX_TASK_BYTES = 16 * 1024;

interface Waiting {
  input: unknown;
  bytes: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  /** This lane's batches in the pool (waiting for their turn or running). */
  running: number;
  waiting: Waiting[];
}

/**
 * Validations of one caller batched into pool tasks under load: each caller has at most one batch per pool thread
 * in the pool at a time, and the validations that arrive meanwhile wait here and go together in the next one
 * (validation.task.ts `batch` runs them one after the other and answers each one's outcome). A lone request still
 * goes at once, alone; under load one hand-off to a thread (structured clone, message, wake-up) carries several.
 * Each member gets its own answer or domain error; a batch stopped by its time budget (or whose thread failed) is
 * run again one member at a time, so only the member at fault fails, as it would have alone.
 */
export class ThreadBatches {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly pool: CpuPool) {}

  /** Runs `name` of the validation thread module for `input`, batched with the same lane's validations. `bytes`:
   * about the input's size (a large one is sent alone). */
  run<I, O>(caller: string, name: BatchedTaskName, input: I, bytes: number): Promise<O> {
    if (bytes > MAX_TASK_BYTES) return this.pool.run<I, O>('validation', name, input);
    const lane = `${name} ${caller}`;
    let state = this.lanes.get(lane);
    if (!state) this.lanes.set(lane, (state = { running: 0, waiting: [] }));
    const queued = new Promise<O>((resolve, reject) => state.waiting.push({ input, bytes, resolve: resolve as (value: unknown) => void, reject }));
    if (state.running < this.pool.threads) this.next(lane, state, name);
    return queued;
  }

  /** Sends the lane's next batch (its waiting members, up to the limits). */
  private next(lane: string, state: Lane, name: BatchedTaskName): void {
    let bytes = 0;
    let count = 0;
    while (count < state.waiting.length && count < MAX_TASKS && (count === 0 || bytes + state.waiting[count].bytes <= MAX_BYTES)) {
      bytes += state.waiting[count].bytes;
      count++;
    }
    const members = state.waiting.splice(0, count);
    state.running++;
    void this.send(name, members).finally(() => {
      state.running--;
      if (state.waiting.length > 0) this.next(lane, state, name);
      else if (state.running === 0) this.lanes.delete(lane);
    });
  }

  private async send(name: BatchedTaskName, members: Waiting[]): Promise<void> {
    if (members.length === 1) {
      const [member] = members;
      await this.pool.run('validation', name, member.input).then(member.resolve, member.reject);
      return;
    }
    let outcomes: Array<Outcome<unknown>>;
    try {
      outcomes = await this.pool.run<ThreadBatch, Array<Outcome<unknown>>>('validation', 'batch', { name, inputs: members.map((m) => m.input) });
    } catch (error) {
      // A full pool refuses every member; otherwise one member may have cost the batch its budget or its thread:
      // each is run alone, at its own turn.
      if (error instanceof CpuPoolBusy) {
        for (const member of members) member.reject(error);
        return;
      }
      await Promise.all(members.map((member) => this.pool.run('validation', name, member.input).then(member.resolve, member.reject)));
      return;
    }
    members.forEach((member, i) => {
      try {
        member.resolve(unwrap(outcomes[i]));
      } catch (error) {
        member.reject(error);
      }
    });
  }
}
