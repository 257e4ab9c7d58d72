import { loadSettings } from '../../src/config';
import type { JobStatus } from '../../src/entities/job.entity';
import { JobEventsRetention } from '../../src/jobs/job-events-retention';
import type { TestApp } from '../support/app';
import { appWithoutWorkers, queuedJob } from '../support/jobs';
import { JOB_FIELDS, subscribe } from '../support/subscriptions';

const DAY_MS = 24 * 60 * 60 * 1000;

let app: TestApp;
let userId: number;
let token: string;
beforeAll(async () => ({ app, userId, token } = await appWithoutWorkers()));
afterAll(() => app.close());

/** A job that went through `steps` and, unless `end` is null, ended: one event per status or step. */
async function jobThrough(steps: string[], end: JobStatus | null): Promise<{ id: number; ctId: string }> {
  const job = await queuedJob(app, userId);
  for (const step of steps) await app.services.jobs.update(job.id, { status: 'running', step });
  if (end) await app.services.jobs.update(job.id, { status: end, step: 'done' });
  return job;
}

async function eventsOf(job: { id: number }): Promise<Array<{ seq: number; status: string }>> {
  return app.services.db.query('SELECT seq, status FROM job_events WHERE job_id = $1 ORDER BY seq', [job.id]);
}

const retention = (days: number, batch?: { rows: number; perRun: number }) => new JobEventsRetention(app.services.db, app.clock, days, batch);

describe('job events retention', () => {
  it('keeps only the last event of jobs ended before the period; running, queued and recently ended jobs keep all', async () => {
    const completed = await jobThrough(['parsing', 'modeling'], 'completed');
    const failed = await jobThrough(['parsing'], 'failed');
    const running = await jobThrough(['parsing', 'modeling'], null);
    const queued = await jobThrough([], null);
    app.clock.advance(31 * DAY_MS);
    const recent = await jobThrough(['parsing'], 'completed');

    expect(await retention(30).run()).toBe(3 + 2);
    expect(await eventsOf(completed)).toEqual([{ seq: 4, status: 'completed' }]);
    expect(await eventsOf(failed)).toEqual([{ seq: 3, status: 'failed' }]);
    expect((await eventsOf(running)).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await eventsOf(queued)).map((e) => e.seq)).toEqual([1]);
    expect((await eventsOf(recent)).map((e) => e.seq)).toEqual([1, 2, 3]);

    // The trimmed history still says how the job ended: replayed from the start, it is its final event.
    const history = subscribe(
      app.url,
      `subscription($id: String!) { jobUpdated(ctId: $id, afterSeq: 0) { ${JOB_FIELDS} } }`,
      'jobUpdated',
      { token },
      { id: completed.ctId },
    );
    await history.done;
    await history.close();
    expect(history.errors).toEqual([]);
    expect(history.items.map((item: any) => [item.seq, item.status])).toEqual([[4, 'completed']]);

    // The job that was running ends later; it is trimmed once it has been over for the period too.
    await app.services.jobs.update(running.id, { status: 'completed', step: 'done' });
    expect(await retention(30).run()).toBe(0);
    app.clock.advance(31 * DAY_MS);
    expect(await retention(30).run()).toBe(3 + 2);
    expect(await eventsOf(running)).toEqual([{ seq: 4, status: 'completed' }]);
  });

  it('0 days keeps every event (and is the setting JOB_EVENTS_RETENTION_DAYS=0; default 30, negative refused)', async () => {
    const old = await jobThrough(['parsing'], 'completed');
    app.clock.advance(400 * DAY_MS);
    expect(await retention(0).run()).toBe(0);
    expect((await eventsOf(old)).map((e) => e.seq)).toEqual([1, 2, 3]);

    expect(loadSettings({}).jobEventsRetentionDays).toBe(30);
    expect(loadSettings({ JOB_EVENTS_RETENTION_DAYS: '0' }).jobEventsRetentionDays).toBe(0);
    expect(() => loadSettings({ JOB_EVENTS_RETENTION_DAYS: '-1' })).toThrow('JOB_EVENTS_RETENTION_DAYS must be 0 or more');
  });

  it('deletes in bounded batches: a run stops after its batches, the next one goes on where it stopped', async () => {
    const jobs = [];
    for (let i = 0; i < 3; i++) jobs.push(await jobThrough(['parsing', 'modeling'], 'completed'));
    app.clock.advance(31 * DAY_MS);
    const bounded = retention(30, { rows: 2, perRun: 2 });
    // The previous test's job is in range too (2 deletable), before these three (3 each): 11 in all.
    const runs = [await bounded.run(), await bounded.run(), await bounded.run(), await bounded.run()];
    expect(runs).toEqual([4, 4, 3, 0]);
    for (const job of jobs) expect(await eventsOf(job)).toEqual([{ seq: 4, status: 'completed' }]);
  });
});
