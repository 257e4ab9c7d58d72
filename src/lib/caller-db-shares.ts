import { AsyncLocalStorage } from 'node:async_hooks';
import { Semaphore } from './semaphore';

/**
 * Database connections one caller may hold at once (DB_CONNECTIONS_PER_CALLER), one set per process shared by
 * everything that runs for that caller and could otherwise take the pool: its GraphQL fields over HTTP and
 * WebSocket, and its storage writes (a VaaS package or an uploaded file is written one 1 MiB chunk at a time on one
 * connection, so a write holds one slot for its whole length). The rest of that caller's work waits its turn; other
 * callers' never waits behind it. Work already inside one of its caller's slots runs in it (a GraphQL field that
 * stores a file), so nesting never waits on itself.
 */
export class CallerDbShares {
  private readonly shares = new Map<string, { slots: Semaphore; users: number }>();
  /** The caller whose slot the work in progress holds. */
  private readonly holding = new AsyncLocalStorage<string>();

  constructor(readonly perCaller: number) {}

  /** Runs `work` in one of `caller`'s slots; without a caller (jobs, sweeps) at once. */
  async run<T>(caller: string | undefined, work: () => Promise<T> | T): Promise<T> {
    if (caller === undefined || this.holding.getStore() === caller) return work();
    let share = this.shares.get(caller);
    if (!share) this.shares.set(caller, (share = { slots: new Semaphore(this.perCaller), users: 0 }));
    share.users++;
    try {
      return await share.slots.run(() => this.holding.run(caller, work));
    } finally {
      if (--share.users === 0) this.shares.delete(caller);
    }
  }
}
