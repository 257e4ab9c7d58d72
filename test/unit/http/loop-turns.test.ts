import type { IncomingMessage } from 'node:http';
import { LOOP_TURN_BYTES, loopTurn, needsTurn } from '../../../src/http/loop-turns';
import { runAsCaller } from '../../../src/lib/caller-context';

/** Busy for `ms` on this thread, as parsing a large body would be. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('turns of the event loop', () => {
  it('serves callers in turn, not by how many turns each asked for', async () => {
    const order: string[] = [];
    const ask = (caller: string, n: number) => loopTurn(caller).then(() => void order.push(`${caller}${n}`));
    await Promise.all([ask('heavy', 1), ask('heavy', 2), ask('heavy', 3), ask('light', 1), ask('other', 1)]);
    expect(order).toEqual(['heavy1', 'light1', 'other1', 'heavy2', 'heavy3']);
  });

  it('lets the loop run what became due during one turn before the next turn', async () => {
    const order: string[] = [];
    await Promise.all([
      loopTurn('heavy').then(() => {
        order.push('turn 1');
        // A timer that falls due while this step runs: the next turn waits for the loop's next iteration.
        setTimeout(() => order.push('timer'), 1);
        spin(5);
      }),
      loopTurn('heavy').then(() => void order.push('turn 2')),
    ]);
    expect(order).toEqual(['turn 1', 'timer', 'turn 2']);
  });

  it("takes the request's caller when none is named", async () => {
    const order: string[] = [];
    await Promise.all([
      runAsCaller('key:1', () => loopTurn().then(() => void order.push('key 1 a'))),
      runAsCaller('key:1', () => loopTurn().then(() => void order.push('key 1 b'))),
      runAsCaller('key:2', () => loopTurn().then(() => void order.push('key 2'))),
    ]);
    expect(order).toEqual(['key 1 a', 'key 2', 'key 1 b']);
  });

  it('is needed by a body declared at LOOP_TURN_BYTES or more, or sent without a length', () => {
    const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
    expect(needsTurn(req({ 'content-length': String(LOOP_TURN_BYTES) }))).toBe(true);
    expect(needsTurn(req({ 'content-length': String(LOOP_TURN_BYTES - 1) }))).toBe(false);
    expect(needsTurn(req({ 'transfer-encoding': 'chunked' }))).toBe(true);
    expect(needsTurn(req({}))).toBe(false);
  });
});
