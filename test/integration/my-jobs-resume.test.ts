import { makeUser } from '../support/factories';
import type { TestApp } from '../support/app';
import { appWithoutWorkers, queuedJob } from '../support/jobs';
import { JOB_FIELDS, subscribe, type Collected } from '../support/subscriptions';

interface Item {
  ctId: string;
  seq: number;
  status: string;
  step: string | null;
  cursor: string | null;
}

let app: TestApp;
let userId: number;
let token: string;
beforeAll(async () => ({ app, userId, token } = await appWithoutWorkers()));
afterAll(() => app.close());

const MY_JOBS = `subscription($after: String) { myJobs(after: $after) { ${JOB_FIELDS} cursor } }`;
const myJobs = (after?: string) => subscribe<Item>(app.url, MY_JOBS, 'myJobs', { token }, after ? { after } : {});

const newJob = (owner = userId) => queuedJob(app, owner);
const step = (job: { id: number }, name: string) => app.services.jobs.update(job.id, { status: 'running', step: name });
const complete = (job: { id: number }) => app.services.jobs.update(job.id, { status: 'completed', step: 'done' });
const seqsOf = (items: Item[]) => items.map((item) => `${item.ctId}#${item.seq}`);

describe('myJobs resumes from the cursor of the last item received', () => {
  jest.setTimeout(60_000);

  it('replays every missed event of your jobs once, in order per job, then the live ones', async () => {
    // A job whose steps were long over when the stream started: its old events are not replayed.
    const quiet = await newJob();
    await step(quiet, 'parsing');
    app.clock.advance(10 * 60_000);
    const followed = await newJob();

    const first: Collected<Item> = myJobs();
    // A subscription says nothing until something happens: step until it reports, which proves it live.
    let seen: Item | null = null;
    for (const name of ['parsing', 'parsed', 'agent_processing']) {
      await step(followed, name);
      seen = await first.until((item) => item.ctId === followed.ctId && item.step === name, 2_000).catch(() => null);
      if (seen) break;
    }
    expect(seen).not.toBeNull();
    const last = first.items.at(-1)!;
    expect(last.cursor).toEqual(expect.any(String));
    await first.close();

    // While away: the followed job steps and ends, a new job starts and steps, the quiet one steps, someone else's job runs.
    await step(followed, 'modeling');
    await complete(followed);
    const started = await newJob();
    await step(started, 'parsing');
    await step(quiet, 'modeling');
    const others = await newJob((await makeUser(app.services)).id);
    await step(others, 'parsing');

    const resumed = myJobs(last.cursor!);
    try {
      await resumed.until((item) => item.ctId === followed.ctId && item.status === 'completed');
      await resumed.until((item) => item.ctId === started.ctId && item.step === 'parsing');
      await resumed.until((item) => item.ctId === quiet.ctId && item.step === 'modeling');
      // Then the live ones.
      await step(started, 'modeling');
      await complete(started);
      await resumed.until((item) => item.ctId === started.ctId && item.status === 'completed');
      expect(resumed.errors).toEqual([]);

      const trail = (ctId: string) => resumed.items.filter((item) => item.ctId === ctId).map(({ seq, status, step }) => ({ seq, status, step }));
      expect(trail(followed.ctId)).toEqual([
        { seq: last.seq + 1, status: 'running', step: 'modeling' },
        { seq: last.seq + 2, status: 'completed', step: 'done' },
      ]);
      expect(trail(started.ctId)).toEqual([
        { seq: 1, status: 'queued', step: null },
        { seq: 2, status: 'running', step: 'parsing' },
        { seq: 3, status: 'running', step: 'modeling' },
        { seq: 4, status: 'completed', step: 'done' },
      ]);
      expect(trail(quiet.ctId)).toEqual([{ seq: 3, status: 'running', step: 'modeling' }]);
      expect(resumed.items.some((item) => item.ctId === others.ctId)).toBe(false);
      expect(new Set(seqsOf(resumed.items)).size).toBe(resumed.items.length);
      // Nothing the first stream showed comes again.
      expect(seqsOf(resumed.items).filter((id) => seqsOf(first.items).includes(id))).toEqual([]);
    } finally {
      await resumed.close();
    }
  });

  it('refuses an after that is not a cursor, naming the argument', async () => {
    const refused = myJobs('not-a-cursor');
    await refused.done;
    expect(refused.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_request', status: 400 }) })]);
    await refused.close();
  });
});
