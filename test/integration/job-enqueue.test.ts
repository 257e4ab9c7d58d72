import { makeUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

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
      app.services.jobs.enqueue(m, { kind: 'generate_package', userId: user.id, apiKeyId: null, request: {} }),
    );
    const [task] = await app.services.db.query('SELECT name, data FROM pgboss.job WHERE id = $1', [job.taskId]);
    expect(task).toEqual({ name: 'generate_package', data: { jobId: job.ctId } });
  });

  it('leaves neither when the transaction rolls back after the send', async () => {
    const user = await makeUser(app.services);
    const before = await counts();
    await expect(
      app.services.db.transaction(async (m) => {
        await app.services.jobs.enqueue(m, { kind: 'generate_package', userId: user.id, apiKeyId: null, request: {} });
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    expect(await counts()).toEqual(before);
  });
});
