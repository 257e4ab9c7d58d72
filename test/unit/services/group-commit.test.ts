import { GroupCommit, type Settled } from '../../../src/money';

/** A GroupCommit whose batches are recorded; `fail` decides, per batch, what its apply throws (nothing: each
 * member gets its op back). */
function recorder(fail: (ops: string[]) => Error | null = () => null) {
  const batches: string[][] = [];
  const commit = new GroupCommit<string, string>(async (_key, ops) => {
    batches.push(ops);
    await new Promise((resolve) => setImmediate(resolve));
    const error = fail(ops);
    if (error) throw error;
    return ops.map((op): Settled<string> => ({ ok: true, value: op }));
  });
  return { batches, commit };
}

const rowError = () => Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
const outage = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('GroupCommit', () => {
  it('applies what arrives during a batch in the next one, per key', async () => {
    const { batches, commit } = recorder();
    const answers = await Promise.all([commit.submit(1, 'a'), commit.submit(1, 'b'), commit.submit(1, 'c'), commit.submit(2, 'x')]);
    expect(answers).toEqual(['a', 'b', 'c', 'x']);
    expect(batches).toEqual([['a'], ['x'], ['b', 'c']]);
  });

  it('a batch failing on one member is applied one member at a time: only that member fails', async () => {
    const { batches, commit } = recorder((ops) => (ops.includes('bad') ? rowError() : null));
    const settled = await Promise.allSettled(['a', 'b', 'bad', 'c'].map((op) => commit.submit(1, op)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('an unreachable database fails the whole batch at once, without a try per member', async () => {
    const { batches, commit } = recorder((ops) => (ops.length > 1 ? outage() : null));
    const settled = await Promise.allSettled(['a', 'b', 'c', 'd'].map((op) => commit.submit(1, op)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected']);
    expect((settled[1] as PromiseRejectedResult).reason.code).toBe('ECONNREFUSED');
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  });
});
