import type { EntityManager } from 'typeorm';
import { JobQueue } from '../../src/jobs/queue';
import { QUEUES } from '../../src/jobs/workers';
import { makeUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { expectWithinBaseline, msOf } from '../support/baseline';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { workers: false });
});
afterAll(() => app.close());

async function counts() {
  const [jobs] = await app.services.db.query('SELECT count(*)::int AS n FROM jobs');
  const [tasks] = await app.services.db.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'generate_package'");
  return { jobs: jobs.n, tasks: tasks.n };
}

describe('a job row and its queue message commit or roll back together', () => {
  it('commits both, with task_id naming the pg-boss message', async () => {
    const user = await makeUser(app.services);
    const job = await app.services.db.transaction((m) =>
      app.services.jobs.enqueue(m, { kind: 'generate_package', userId: user.id, apiKeyId: null, request: { dmCtId: 'none', profile: 'os' } }),
    );
    const [task] = await app.services.db.query('SELECT name, data FROM pgboss.job WHERE id = $1', [job.taskId]);
    expect(task).toEqual({ name: 'generate_package', data: { jobId: job.ctId } });
  });

  it('leaves neither when the transaction rolls back after the send', async () => {
    const user = await makeUser(app.services);
    const before = await counts();
    await expect(
      app.services.db.transaction(async (m) => {
        await app.services.jobs.enqueue(m, { kind: 'generate_package', userId: user.id, apiKeyId: null, request: { dmCtId: 'none', profile: 'os' } });
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    expect(await counts()).toEqual(before);
  });
});

describe('workers in another process', () => {
  /** A second queue with its own pg-boss and connections: a worker process beside this gateway. */
  async function workerProcess(onJob: (jobId: string) => void) {
    const queue = await JobQueue.start(app.databaseUrl, { queues: QUEUES, supervise: false, onError: () => undefined });
    await queue.work('generate_package', 1, async ({ jobId }) => onJob(jobId));
    return queue;
  }

  const enqueue = (m: EntityManager, userId: number) =>
    app.services.jobs.enqueue(m, { kind: 'generate_package', userId, apiKeyId: null, request: { dmCtId: 'none', profile: 'os' } });

  it('take a job as soon as the enqueueing transaction commits, not at their next poll', async () => {
    const user = await makeUser(app.services);
    const takenAt = new Map<string, number>();
    const worker = await workerProcess((jobId) => takenAt.set(jobId, Date.now()));
    try {
      // The baseline: the slowest of five database round trips right now; waking, fetching and starting a job
      // takes a few of them, while waiting for the next poll (every 500 ms) takes hundreds of milliseconds.
      const roundTrips: number[] = [];
      for (let i = 0; i < 5; i++) roundTrips.push(await msOf(() => app.services.db.query('SELECT 1')));
      const delays: number[] = [];
      for (let i = 0; i < 5; i++) {
        const job = await app.services.db.transaction(async (m) => {
          const queued = await enqueue(m, user.id);
          await new Promise((r) => setTimeout(r, 600));
          expect(takenAt.has(queued.ctId)).toBe(false);
          return queued;
        });
        const committedAt = Date.now();
        while (!takenAt.has(job.ctId) && Date.now() - committedAt < 5000) await new Promise((r) => setTimeout(r, 5));
        delays.push(takenAt.get(job.ctId)! - committedAt);
      }
      // Polling alone (every 500 ms) would leave most of these waiting for hundreds of milliseconds.
      expectWithinBaseline(Math.max(...delays), Math.max(...roundTrips), 20);
    } finally {
      await worker.stop();
    }
  });

  it('fetch again at once after a job while there is work, instead of sleeping out the polling interval', async () => {
    const user = await makeUser(app.services);
    const ids = await app.services.db.transaction(async (m) => {
      const queued: string[] = [];
      for (let i = 0; i < 20; i++) queued.push((await enqueue(m, user.id)).ctId);
      return queued;
    });
    const taken = new Set<string>();
    const started = Date.now();
    let firstTakenAt = 0;
    const worker = await workerProcess((jobId) => {
      firstTakenAt ||= Date.now();
      taken.add(jobId);
    });
    try {
      while (!ids.every((id) => taken.has(id)) && Date.now() - started < 15000) await new Promise((r) => setTimeout(r, 20));
      expect(ids.filter((id) => !taken.has(id))).toEqual([]);
      // The baseline is the first job (the worker's start and one fetch); one loop sleeping half a second between
      // jobs would need about ten seconds more for the other nineteen.
      expectWithinBaseline(Date.now() - started, firstTakenAt - started, 1000, 4);
    } finally {
      await worker.stop();
    }
  });
});
