import { finalJob } from '../support/wait';
import { JOB_KINDS } from '../../src/entities/job.entity';
import { QUEUE_NAMES, QUEUE_SCHEMA } from '../../src/db/queues';
import { JOB_TASKS } from '../../src/jobs/workers';
import { libraryComponent } from '../support/catalog-factories';
import { failInserts } from '../support/database';
import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/** The job runner on real Postgres and real pg-boss, in this process. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ appDownloadCredits: 250 });
});
afterAll(() => app.close());

/** The job row's attempts and its pg-boss message's retry count and state (live or archived). */
async function attemptsOf(ctId: string): Promise<{ attempts: number; retryCount: number; state: string }> {
  const [row] = await app.services.db.query(
    `SELECT j.attempts, q.retry_count AS "retryCount", q.state FROM jobs j
       JOIN (SELECT id, retry_count, state FROM ${QUEUE_SCHEMA}.job UNION ALL SELECT id, retry_count, state FROM ${QUEUE_SCHEMA}.archive) q
         ON q.id::text = j.task_id
      WHERE j.ct_id = $1`,
    [ctId],
  );
  return row;
}

describe('job kinds are defined once', () => {
  it('JOB_KINDS is exactly what the jobs table CHECK allows', async () => {
    const [{ definition }] = await app.services.db.query(
      "SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = 'jobs'::regclass AND conname = 'jobs_kind_check'",
    );
    const allowed = [...(definition as string).matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
    expect(allowed.sort()).toEqual([...JOB_KINDS].sort());
  });

  it('every job kind has a queue in pg-boss and exactly one task', async () => {
    const queues = await app.services.db.query(`SELECT name FROM ${QUEUE_SCHEMA}.queue ORDER BY name`);
    expect(queues.map((q: { name: string }) => q.name)).toEqual([...QUEUE_NAMES].sort());
    expect(JOB_TASKS.flatMap((task) => task.kinds).sort()).toEqual([...JOB_KINDS].sort());
  });
});

describe('the failure policy', () => {
  it('fails an upload whose CSV is unreadable at once: one attempt, no retry', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const form = new FormData();
    form.append('file', new Blob(['a,b,c\n']), 'header-only.csv');
    const res = await client.post('/api/v1/uploader/api/data-sources/', form);
    expect(res.status).toBe(202);
    const job = await finalJob(client, res.body.job.ct_id);
    expect(job).toMatchObject({ status: 'failed', error: 'The CSV has a header but no data rows.', result: null });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await attemptsOf(job.ct_id)).toEqual({ attempts: 1, retryCount: 0, state: 'completed' });
  });

  it('fails an assembly whose build breaks at once (one attempt), charging nothing', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    await failInserts(app.services.db, 'components', 'label', 'Runner Breaks', 'runner test: build refused');
    const res = await client.post('/api/v1/dmgen/assemble/', {
      title: 'Breaks',
      data: { label: 'Breaks Data', components: [{ label: 'Runner Breaks', data_type: 'XdBoolean' }] },
    });
    expect(res.status).toBe(202);
    const job = await finalJob(client, res.body.job_ct_id);
    expect(job).toMatchObject({ status: 'failed', error: expect.stringContaining('runner test: build refused'), cost_credits: 0 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await attemptsOf(job.ct_id)).toEqual({ attempts: 1, retryCount: 0, state: 'completed' });
    const [{ charges }] = await app.services.db.query("SELECT count(*)::int AS charges FROM ledger_entries WHERE user_id = $1 AND kind = 'charge'", [
      user.id,
    ]);
    expect(charges).toBe(0);
  });

  it('leaves a job that is already final as it is when its message is delivered again', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const form = new FormData();
    form.append('file', new Blob(['a,b,c\n']), 'again.csv');
    const res = await client.post('/api/v1/uploader/api/data-sources/', form);
    const failed = await finalJob(client, res.body.job.ct_id);
    await app.services.queue.send('upload', { jobId: failed.ct_id });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await client.get(`/api/v1/jobs/${failed.ct_id}/`)).body).toEqual(failed);
    const [{ attempts }] = await app.services.db.query('SELECT attempts FROM jobs WHERE ct_id = $1', [failed.ct_id]);
    expect(attempts).toBe(1);
  });
});

describe('the job a generate request answers with', () => {
  it('shows the cost_credits GET /jobs/:id shows, read from the ledger, then the charge once the job has run', async () => {
    // A gateway without workers: the queued job stays as the 202 showed it.
    const gateway = await startTestApp({ appDownloadCredits: 250 }, { workers: false });
    try {
      const { client } = await signedIn(gateway.url, gateway.services, { credits: 5000 });
      const reused = (await libraryComponent(gateway.services, { label: 'Priced Flag' })).ctId;
      const model = await client.post('/api/v1/dmgen/assemble/', {
        title: 'Priced',
        generate: false,
        data: { label: 'Priced Data', components: [{ ct_id: reused }] },
      });
      expect(model.status).toBe(200);
      const res = await client.post(`/api/v1/dmgen/dms/${model.body.ct_id}/generate_app/`, { async: true });
      expect(res.status).toBe(202);
      expect((await client.get(`/api/v1/jobs/${res.body.job_ct_id}/`)).body).toEqual(res.body.job);
    } finally {
      await gateway.close();
    }
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const reused = (await libraryComponent(app.services, { label: 'Charged Flag' })).ctId;
    const model = await client.post('/api/v1/dmgen/assemble/', {
      title: 'Charged',
      generate: false,
      data: { label: 'Charged Data', components: [{ ct_id: reused }] },
    });
    const res = await client.post(`/api/v1/dmgen/dms/${model.body.ct_id}/generate_app/`, { async: true });
    const done = await finalJob(client, res.body.job_ct_id);
    expect(done).toMatchObject({ status: 'completed', cost_credits: 250 });
    const listed = (await client.get('/api/v1/jobs/?kind=generate_app')).body.find((j: { ct_id: string }) => j.ct_id === done.ct_id);
    expect(listed).toEqual(done);
  });
});
