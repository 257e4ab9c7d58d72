import { move } from 'piscina';
import { loadSettings } from '../../src/config';
import { CpuPoolBusy } from '../../src/lib/cpu-errors';
import { CpuPool, runAsCpuCaller } from '../../src/workers/pool';

/** What the tenant flood (tenant-flood.test.ts) exposed in the CPU pool, with real worker threads (`npm run build`
 * first): megabyte-sized tasks could hold every thread, so a victim's small task waited behind them, and callers
 * filling the whole queue got everyone else refused. Large tasks (CPU_POOL_LARGE_TASK_BYTES) now leave one thread
 * to small ones, and a full queue still takes a caller with nothing waiting. */

const json = (values: number) => new TextEncoder().encode(JSON.stringify({ values: Array.from({ length: values }, (_, i) => ({ i, s: `v${i}` })) }));
const large = json(60_000);
const small = json(10);

function poolOf(overrides: { threads?: number; maxQueue?: number; largeTaskBytes?: number } = {}) {
  return new CpuPool({ ...loadSettings({}).cpu, threads: 2, maxQueue: 64, maxQueuePerCaller: 16, largeTaskBytes: 100_000, ...overrides });
}

const parse = (pool: CpuPool, caller: string, body: Uint8Array | ReturnType<typeof move>) =>
  runAsCpuCaller(caller, () => pool.run('body', 'jsonObject', body));

// A request body reaches the pool handed over with piscina's `move` (src/http/body.ts): it is as large as its bytes
// (it counted as nothing, so megabyte bodies took every thread).
it.each([
  ['copied', (body: Uint8Array) => body],
  ['moved', (body: Uint8Array) => move(body.slice())],
])('keeps a thread from large tasks (%s to the thread), so a small one runs at once beside them', async (_, handed) => {
  expect(large.byteLength).toBeGreaterThan(100_000);
  const pool = poolOf();
  try {
    await pool.warm();
    const finished: string[] = [];
    const floods = Array.from({ length: 4 }, (_, i) => parse(pool, `key:flood-${i % 2}`, handed(large)).then(() => finished.push(`large-${i}`)));
    const victim = parse(pool, 'key:victim', small).then(() => finished.push('small'));
    await Promise.all([...floods, victim]);
    // Two threads: one runs the large tasks in turn, the other was free for the small one.
    expect(finished[0]).toBe('small');
  } finally {
    await pool.close();
  }
});

it("queues a caller with nothing waiting when others have filled the queue, and refuses the fillers' next", async () => {
  const pool = poolOf({ threads: 1, maxQueue: 2 });
  try {
    await pool.warm();
    const running = parse(pool, 'key:flood', large);
    const queued = [parse(pool, 'key:flood', large), parse(pool, 'key:flood', large)];
    const refused = await parse(pool, 'key:flood', small).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CpuPoolBusy);
    expect((refused as CpuPoolBusy).ownQueue).toBe(false);
    // Another caller's first task is queued and answered.
    await expect(parse(pool, 'key:victim', small)).resolves.toBeDefined();
    await Promise.all([running, ...queued]);
  } finally {
    await pool.close();
  }
});
