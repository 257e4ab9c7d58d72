import type { IncomingMessage } from 'node:http';
import { currentCaller } from '../lib/caller-context';

/** A JSON body from this size on is parsed and checked in its caller's turn of the event loop (`needsTurn`). */
export const LOOP_TURN_BYTES = 16 * 1024;

/**
 * The event loop's fair queue, the CPU pool's counterpart for work that stays on the loop. A request about to do
 * milliseconds of synchronous work (parsing and checking a JSON body of 100 KB, an estimate of 2,000 leaves, is
 * several) waits for a turn; turns are given one per iteration of the loop, in its check phase, round robin by
 * caller. Between two turns the loop polls for I/O and answers what came in, so a health check or a small request
 * waits for at most one such step, not for every large body that arrived with it: six estimates and six aliased
 * GraphQL bodies arriving together had held the loop for 50-100 ms. An idle loop gives a turn in the iteration it
 * is asked in. Only the order changes: a turn costs no more work than the step it precedes.
 */
class LoopTurns {
  /** Each caller's waiting turns, callers in the order they are to be served (a Map keeps insertion order). */
  private readonly lanes = new Map<string, Array<() => void>>();
  private scheduled = false;

  take(caller: string): Promise<void> {
    return new Promise((resolve) => {
      const lane = this.lanes.get(caller);
      if (lane) lane.push(resolve);
      else this.lanes.set(caller, [resolve]);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // Set while the loop runs its immediates, the next one waits for the next iteration, after a poll for I/O.
    setImmediate(() => this.next());
  }

  private next(): void {
    this.scheduled = false;
    const first = this.lanes.entries().next();
    if (first.done) return;
    const [caller, lane] = first.value;
    const resolve = lane.shift()!;
    // The caller goes to the back of the line: callers are served in turn, not by how many requests they sent.
    this.lanes.delete(caller);
    if (lane.length) this.lanes.set(caller, lane);
    resolve();
    if (this.lanes.size) this.schedule();
  }
}

const turns = new LoopTurns();

/** Waits for `caller`'s next turn of the event loop (by default the request's CPU caller, src/lib/caller-context.ts). */
export function loopTurn(caller = currentCaller() ?? 'anonymous'): Promise<void> {
  return turns.take(caller);
}

/** Whether a request's body is large enough to be parsed in a turn: declared at LOOP_TURN_BYTES or more, or sent
 * without a length (chunked), which may be as large as the route allows. */
export function needsTurn(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared === undefined ? req.headers['transfer-encoding'] !== undefined : Number(declared) >= LOOP_TURN_BYTES;
}
