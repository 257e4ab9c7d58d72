import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import type { TestApp } from '../support/app';
import { appWithoutWorkers, queuedJob } from '../support/jobs';
import { exitOf, ROOT } from '../support/process';
import { waitFor } from '../support/wait';

/** The retention sweep as a worker node runs it (main.ts): from its start, with JOB_EVENTS_RETENTION_DAYS. */
jest.setTimeout(90_000);

let app: TestApp;
let userId: number;
let storage: string;
let node: ChildProcess | null = null;
beforeAll(async () => {
  ({ app, userId } = await appWithoutWorkers());
  storage = await mkdtemp(path.join(tmpdir(), 'retention-node-'));
});
afterAll(async () => {
  if (node && node.exitCode === null) {
    node.kill('SIGTERM');
    await exitOf(node);
  }
  await app?.close();
  await rm(storage, { recursive: true, force: true });
});

const eventCount = async (jobId: number) =>
  Number((await app.services.db.query('SELECT count(*)::int AS n FROM job_events WHERE job_id = $1', [jobId]))[0].n);

it('a worker node trims the events of jobs that ended before the period as soon as it starts', async () => {
  const ended = await queuedJob(app, userId);
  const recent = await queuedJob(app, userId);
  for (const job of [ended, recent]) {
    await app.services.jobs.update(job.id, { status: 'running', step: 'parsing' });
    await app.services.jobs.update(job.id, { status: 'completed', step: 'done' });
  }
  await app.services.db.query("UPDATE jobs SET updated_at = now() - interval '8 days' WHERE id = $1", [ended.id]);
  expect([await eventCount(ended.id), await eventCount(recent.id)]).toEqual([3, 3]);

  let output = '';
  node = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: app.databaseUrl, ROLE: 'worker', STORAGE_DIR: storage, JOB_EVENTS_RETENTION_DAYS: '7', LOG_LEVEL: 'info' },
  });
  node.stdout!.on('data', (c) => (output += c));
  node.stderr!.on('data', (c) => (output += c));
  await waitFor(
    () => eventCount(ended.id),
    (n) => n === 1,
    60_000,
    'the ended job trimmed to its last event',
    () => output,
  );
  // The log line is written after the delete commits: wait for it rather than race the child's stdout.
  await waitFor(
    async () => output,
    (text) => text.includes('job events past their retention deleted'),
    10_000,
    'the sweep logged what it deleted',
    () => output,
  );
  expect(await eventCount(recent.id)).toBe(3);
  const [last] = await app.services.db.query('SELECT status FROM job_events WHERE job_id = $1', [ended.id]);
  expect(last.status).toBe('completed');
});
