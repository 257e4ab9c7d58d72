import type { TestApp } from '../support/app';
import { issueKey, makeUser, PASSWORD } from '../support/factories';
import { HttpClient } from '../support/http';
import { appWithoutWorkers, queuedJob } from '../support/jobs';
import { openSocket, type RawSocket } from '../support/raw-socket';
import { JOB_FIELDS } from '../support/subscriptions';

/** One read per job event (issue 30, point 4): however many myJobs subscriptions a user has open, over however
 * many sockets and keys, each event of its job reads the job and its cost once, and every subscription still
 * sees every step. The reads are counted on the real services (spied on, not replaced). */

const SOCKETS = 3;
const PER_SOCKET = 10;
const MY_JOBS = `subscription { myJobs { ${JOB_FIELDS} } }`;

let app: TestApp;
let userId: number;
let token: string;
beforeAll(async () => ({ app, userId, token } = await appWithoutWorkers()));
afterAll(() => app.close());

interface Item {
  ctId: string;
  seq: number;
  status: string;
  step: string | null;
  costCredits: number;
}

const itemsOf = (socket: RawSocket, id: string): Item[] =>
  socket.messages.filter((m) => m.type === 'next' && m.id === id).map((m) => (m.payload as unknown as { data: { myJobs: Item } }).data.myJobs);

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

it("reads each event of a job once for all of its user's subscriptions", async () => {
  // Two keys of the same user share the sockets, as a tool and a browser tab would.
  const session = new HttpClient(app.url);
  const email = (await app.services.db.query('SELECT email FROM users WHERE id = $1', [userId]))[0].email as string;
  expect((await session.post('/api/v1/auth/login/', { email, password: PASSWORD })).status).toBe(200);
  const second = (await issueKey(session)).key;
  const sockets = Array.from({ length: SOCKETS }, (_, i) => openSocket(app.url, { params: { authorization: `Token ${i % 2 ? second : token}` } }));
  for (const socket of sockets) {
    expect(await socket.acked).toBe(true);
    for (let n = 0; n < PER_SOCKET; n++) socket.subscribe(`jobs-${n}`, MY_JOBS);
    socket.send({ type: 'ping' });
    await socket.next((m) => m.type === 'pong');
  }
  // Someone else's job runs too: nobody here is told, nothing is read for it.
  const stranger = await makeUser(app.services);
  const theirs = await queuedJob(app, stranger.id);

  const getFor = jest.spyOn(app.services.jobs, 'getFor');
  const jobCosts = jest.spyOn(app.services.ledger, 'jobCosts');
  try {
    const job = await queuedJob(app, userId);
    const steps = ['parsing', 'modeling', 'generating'];
    for (const step of steps) await app.services.jobs.update(job.id, { status: 'running', step });
    await app.services.jobs.update(theirs.id, { status: 'running', step: 'parsing' });
    await app.services.jobs.update(job.id, { status: 'completed', step: 'done' });

    const every = () =>
      sockets.every((s) =>
        Array.from({ length: PER_SOCKET }, (_, n) => itemsOf(s, `jobs-${n}`)).every((items) => items.some((i) => i.status === 'completed')),
      );
    await until(every, 'every subscription to see the job complete');
    for (const socket of sockets) {
      for (let n = 0; n < PER_SOCKET; n++) {
        const items = itemsOf(socket, `jobs-${n}`).filter((i) => i.ctId === job.ctId);
        expect(items.map((i) => i.step).slice(-4)).toEqual([...steps, 'done']);
        expect(itemsOf(socket, `jobs-${n}`).some((i) => i.ctId === theirs.ctId)).toBe(false);
      }
    }
    const events = itemsOf(sockets[0], 'jobs-0').filter((i) => i.ctId === job.ctId).length;
    const subscriptions = SOCKETS * PER_SOCKET;
    console.log(
      `job feed: ${subscriptions} subscriptions, ${events} events, ${getFor.mock.calls.length} job reads, ${jobCosts.mock.calls.length} ledger reads`,
    );
    // One read of the job and one of its cost per event, not one per subscription and event.
    expect(getFor.mock.calls.length).toBeLessThanOrEqual(events);
    expect(jobCosts.mock.calls.length).toBeLessThanOrEqual(events);
  } finally {
    getFor.mockRestore();
    jobCosts.mockRestore();
    for (const socket of sockets) socket.close();
  }
});

it("starts a user's new subscriptions with shared reads of where its jobs stand, and each sees the next step", async () => {
  // A job of the user's is already running when the subscriptions open: each must be told of its next step.
  const job = await queuedJob(app, userId);
  await app.services.jobs.update(job.id, { status: 'running', step: 'parsing' });
  const positionsSince = jest.spyOn(app.services.jobs, 'positionsSince');
  const subscriptions = SOCKETS * PER_SOCKET;
  const sockets = Array.from({ length: SOCKETS }, () => openSocket(app.url, { params: { authorization: `Token ${token}` } }));
  try {
    for (const socket of sockets) expect(await socket.acked).toBe(true);
    for (const socket of sockets) for (let n = 0; n < PER_SOCKET; n++) socket.subscribe(`start-${n}`, MY_JOBS);
    for (const socket of sockets) {
      socket.send({ type: 'ping' });
      await socket.next((m) => m.type === 'pong');
    }
    await until(() => positionsSince.mock.calls.length > 0, 'the subscriptions to read where the jobs stand');
    // The next step happens once they know where the job stood (a step before their read is not news to them).
    await Promise.all(positionsSince.mock.results.map((r) => r.value as Promise<unknown>));
    await app.services.jobs.update(job.id, { status: 'running', step: 'modeling' });
    const sawModeling = (s: RawSocket, n: number) => itemsOf(s, `start-${n}`).some((i) => i.ctId === job.ctId && i.step === 'modeling');
    await until(
      () => sockets.every((s) => Array.from({ length: PER_SOCKET }, (_, n) => sawModeling(s, n)).every(Boolean)),
      'every subscription to see the next step',
    );
    console.log(`job feed start: ${subscriptions} subscriptions, ${positionsSince.mock.calls.length} position reads`);
    // Streams that start in the same turn share one read: fewer reads than subscriptions (one each before).
    expect(positionsSince.mock.calls.length).toBeLessThan(subscriptions);
  } finally {
    positionsSince.mockRestore();
    for (const socket of sockets) socket.close();
  }
});
