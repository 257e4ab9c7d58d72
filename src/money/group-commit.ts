import { isDatabaseUnavailable } from '../lib/errors';

/** What one member of a batch got: its own result or its own error. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Member<Op, R> {
  op: Op;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit per key (a wallet): operations that arrive while a transaction of their key is in flight wait, and
 * the next transaction applies all of them, so the key pays one durable commit per batch instead of one per
 * operation (its row lock would serialise them anyway). `apply` decides the members in arrival order and returns
 * one outcome each; when it throws instead (not a member's refusal: a conflict, one member's bad row), the members
 * are applied again one at a time, so one bad member never fails the others. A database that cannot be reached
 * fails the whole batch at once: trying each member against it would only make the last one wait longest.
 */
export class GroupCommit<Op, R> {
  /** Keys with a transaction in flight, and what arrived since it started. */
  private readonly waiting = new Map<number, Member<Op, R>[]>();

  constructor(private readonly apply: (key: number, ops: Op[]) => Promise<Settled<R>[]>) {}

  submit(key: number, op: Op): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const member = { op, resolve, reject };
      const queued = this.waiting.get(key);
      if (queued) {
        queued.push(member);
        return;
      }
      this.waiting.set(key, []);
      void this.drain(key, [member]);
    });
  }

  /** Applies `first`, then what queued meanwhile, until nothing waits for the key. */
  private async drain(key: number, first: Member<Op, R>[]): Promise<void> {
    for (let batch = first; batch.length;) {
      await this.settle(key, batch);
      batch = this.waiting.get(key)!;
      if (batch.length) this.waiting.set(key, []);
      else this.waiting.delete(key);
    }
  }

  /** Never throws: every member is resolved or rejected. */
  private async settle(key: number, batch: Member<Op, R>[]): Promise<void> {
    let outcomes: Settled<R>[];
    try {
      outcomes = await this.apply(
        key,
        batch.map((member) => member.op),
      );
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) return batch.forEach((member) => member.reject(error));
      for (const member of batch) await this.settle(key, [member]);
      return;
    }
    outcomes.forEach((outcome, i) => (outcome.ok ? batch[i].resolve(outcome.value) : batch[i].reject(outcome.error)));
  }
}
