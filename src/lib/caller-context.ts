import { AsyncLocalStorage } from 'node:async_hooks';

/** The caller (src/http/concurrency.ts's caller id: a verified key, session, app key, or an address) the work in
 * progress is done for, set by the HTTP and WebSocket edges around each request or operation; unset for work
 * outside any request (jobs, sweeps). The CPU pool queues a task in its caller's lane and the caller database
 * shares (CallerDbShares) count the connections of its storage writes against it. */
const current = new AsyncLocalStorage<string>();

export function runAsCaller<T>(caller: string, work: () => T): T {
  return current.run(caller, work);
}

/** The caller of the request or operation in progress, if any. */
export function currentCaller(): string | undefined {
  return current.getStore();
}
