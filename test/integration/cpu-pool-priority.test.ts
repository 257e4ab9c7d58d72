import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { loadSettings } from '../../src/config';
import { lowerThreadsPriority, otherThreads } from '../../src/lib/thread-priority';
import { SparqlThread } from '../../src/rdf/sparql-thread';
import { CpuPool } from '../../src/workers/pool';
import { statePopulationXml } from '../unit/xml/fixtures';

/** The nice value of each thread of this process, by thread id (/proc/self/task/<tid>/stat, field 19). */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nice;
}

/** CPU-bound tasks yield the cores to the event loop: pool threads run at a lower priority (a higher nice). */
describe('CPU pool thread priority (CPU_POOL_NICE)', () => {
  const settings = loadSettings({ CPU_POOL_NICE: '7' }).cpu;
  const pool = new CpuPool({ ...settings, threads: 2 });
  afterAll(() => pool.close());

  it('defaults to nice 4 and refuses values outside 0..19', () => {
    expect(loadSettings({}).cpu.thread.nice).toBe(4);
    expect(() => loadSettings({ CPU_POOL_NICE: '20' })).toThrow(/CPU_POOL_NICE must be 0 to 19/);
    expect(() => loadSettings({ CPU_POOL_NICE: '-1' })).toThrow(/CPU_POOL_NICE/);
  });

  it('runs its threads at a higher nice value and leaves the event loop at the process priority', async () => {
    const before = niceByThread();
    expect(await pool.run('vaas', 'vaasRoot', statePopulationXml())).toMatchObject({ dmCtId: expect.any(String) });
    await pool.run('vaas', 'vaasRoot', statePopulationXml());
    const after = niceByThread();
    const poolThreads = [...after.keys()].filter((tid) => !before.has(tid));
    expect(poolThreads.length).toBeGreaterThanOrEqual(1);
    expect(poolThreads.map((tid) => after.get(tid))).toContain(7);
    expect(after.get(process.pid)).toBe(before.get(process.pid));
  });
});

describe('SPARQL store thread priority', () => {
  it('runs the embedded store at the nice it is given', async () => {
    const before = niceByThread();
    const store = new SparqlThread({ timeoutMs: 5_000, maxRows: 10, nice: 7 }, () => undefined);
    try {
      expect(await store.query('SELECT * WHERE { ?s ?p ?o }', 'application/sparql-results+json')).toContain('bindings');
      const after = niceByThread();
      const added = [...after.keys()].filter((tid) => !before.has(tid));
      expect(added.map((tid) => after.get(tid))).toContain(7);
      expect(after.get(process.pid)).toBe(before.get(process.pid));
    } finally {
      await store.close();
    }
  });
});

describe("the process's other threads (V8's collectors and compilers at start-up)", () => {
  it('lowers the threads it is given, lists every thread but the caller and the excepted ones, and puts them back', async () => {
    const worker = new Worker(
      "const { parentPort } = require('node:worker_threads'); parentPort.postMessage(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())); setInterval(() => {}, 1000);",
      { eval: true },
    );
    try {
      const tid = await new Promise<number>((resolve) => worker.once('message', resolve));
      const others = otherThreads();
      expect(others).toContain(tid);
      expect(others).not.toContain(process.pid);
      expect(otherThreads([tid])).not.toContain(tid);
      const before = niceByThread();
      const restore = lowerThreadsPriority([tid], 9);
      expect(restore).not.toBeNull();
      const lowered = niceByThread();
      expect(lowered.get(tid)).toBe(9);
      expect(lowered.get(process.pid)).toBe(before.get(process.pid));
      // Already that low: nothing to change.
      expect(lowerThreadsPriority([tid], 5)).toBeNull();
      restore!();
      // Raising a priority again needs CAP_SYS_NICE (CI runs as root); elsewhere the thread stays lower.
      if (process.getuid?.() === 0) expect(niceByThread().get(tid)).toBe(before.get(tid));
    } finally {
      await worker.terminate();
    }
  });
});
