import { JobQueue } from '../../src/jobs/queue';
import { QUEUES } from '../../src/jobs/workers';
import { expectWithinBaseline } from '../support/baseline';
import { createTestDatabase } from '../support/database';

/** Issue 15: stopping a process hands the messages it is working on back to the queue, so another process resumes
 * them within seconds, with no attempt spent and no error reported. */
jest.setTimeout(120_000);

it('hands a running message back on stop; another process takes it at once as a first attempt', async () => {
  const database = await createTestDatabase();
  const errors: Error[] = [];
  const first = await JobQueue.start(database.url, { queues: QUEUES, supervise: false, onError: (error) => errors.push(error) });
  const second = await JobQueue.start(database.url, { queues: QUEUES, supervise: false, onError: (error) => errors.push(error) });
  try {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    await first.work('upload', 1, () => {
      started();
      return new Promise<void>(() => undefined);
    });
    const sentAt = Date.now();
    await first.send('upload', { jobId: 'handed-back' });
    await running;
    // The baseline: how long the first process took to start the message.
    const firstStartMs = Date.now() - sentAt;

    const stoppedAt = Date.now();
    await first.stop();
    const resumed = await new Promise<{ jobId: string; retryCount: number; afterMs: number }>((resolve) => {
      void second.work('upload', 1, async ({ jobId }, attempt) =>
        resolve({ jobId, retryCount: attempt.retryCount, afterMs: Date.now() - stoppedAt }),
      );
    });
    expect(resumed).toMatchObject({ jobId: 'handed-back', retryCount: 0 });
    expectWithinBaseline(resumed.afterMs, firstStartMs, 500);
    expect(errors).toEqual([]);
  } finally {
    await second.stop();
    await first.stop();
    await database.drop();
  }
});
