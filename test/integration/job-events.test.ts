import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { libraryComponent } from '../support/catalog-factories';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { JOB_FIELDS, subscribe, type Collected } from '../support/subscriptions';
import { finalJob } from '../support/wait';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const UPLOAD_STEPS = [null, 'parsing', 'parsed', 'agent_processing', 'modeling', 'finalizing', 'done'];
const ASSEMBLE_STEPS = [null, 'parsing', 'parsed', 'agent_processing', 'modeling', 'finalizing', 'publishing', 'done'];
const statusesOf = (steps: unknown[]) => steps.map((_step, i) => (i === 0 ? 'queued' : i === steps.length - 1 ? 'completed' : 'running'));

interface Item {
  ctId: string;
  seq: number;
  status: string;
  step: string | null;
}

let app: TestApp;
let reused: string;
let csv: Buffer;
beforeAll(async () => {
  // No pause between steps and 8 jobs at once per kind: steps follow each other within milliseconds.
  app = await startTestApp({ workerConcurrency: 8, pipelineStepDelayMs: 0 });
  reused = (await libraryComponent(app.services, { label: 'Reused Event Name' })).ctId;
  csv = await readFile(path.join(FIXTURES, 'sdc4/sources/StatePopulation.csv'));
});
afterAll(() => app.close());

async function startUpload(client: HttpClient): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([csv as BlobPart]), 'StatePopulation.csv');
  const res = await client.post('/api/v1/uploader/api/data-sources/', form);
  expect(res.status).toBe(202);
  return res.body.job.ct_id as string;
}

async function startAssembly(client: HttpClient, i: number): Promise<string> {
  const res = await client.post('/api/v1/dmgen/assemble/', {
    title: `Events ${i}`,
    publish: true,
    generate: false,
    data: { label: `Events ${i} Data`, components: [{ label: `Reading ${i}`, data_type: 'XdCount', units: 'n' }, { ct_id: reused }] },
  });
  expect(res.status).toBe(202);
  return res.body.job_ct_id as string;
}

const jobSubscription = `subscription($id: String!, $after: Int) { jobUpdated(ctId: $id, afterSeq: $after) { ${JOB_FIELDS} } }`;

/** The items of one job, as `{seq, status, step}` in arrival order. */
const trail = (items: Item[], ctId: string) => items.filter((i) => i.ctId === ctId).map(({ seq, status, step }) => ({ seq, status, step }));
const expected = (steps: Array<string | null>) => steps.map((step, i) => ({ seq: i + 1, status: statusesOf(steps)[i], step }));

describe('job events: every step to every subscriber, in order, exactly once', () => {
  jest.setTimeout(240_000);

  it('20 concurrent jobs (10 uploads, 10 mixed assemblies): each subscriber and myJobs count every step of every job once', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const key = await issueKey(client, { scopes: ['read', 'build', 'spend'] });
    // Its own key: one credential holds at most 20 sockets.
    const watcher = await issueKey(client, { scopes: ['read'] });
    const mine = subscribe<Item>(app.url, `subscription { myJobs { ${JOB_FIELDS} } }`, 'myJobs', { token: watcher.key });
    // A subscription says nothing until something happens: a throwaway job it reports proves it live before the 20 start.
    for (let attempt = 1; ; attempt++) {
      const probe = await startUpload(client);
      const seen = await mine.until((item) => item.ctId === probe, 10_000).catch(() => null);
      if (seen) break;
      if (attempt === 3) throw new Error('myJobs never reported a job');
    }

    const jobs = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => ({ ctId: i % 2 ? await startAssembly(client, i) : await startUpload(client), upload: i % 2 === 0 })),
    );
    // One subscriber per job, from its first event on (afterSeq: 0), attached while the jobs run.
    const subscribers: Array<Collected<Item>> = jobs.map(({ ctId }) =>
      subscribe<Item>(app.url, jobSubscription, 'jobUpdated', { token: key.key }, { id: ctId, after: 0 }),
    );
    try {
      await Promise.all(subscribers.map((sub) => sub.done));
      for (const [i, { ctId, upload }] of jobs.entries()) {
        const steps = upload ? UPLOAD_STEPS : ASSEMBLE_STEPS;
        expect(subscribers[i].errors).toEqual([]);
        expect(trail(subscribers[i].items, ctId)).toEqual(expected(steps));
        expect(subscribers[i].items.at(-1)).toMatchObject({ result: { __typename: upload ? 'UploadJobResult' : 'AssembleJobResult' } });
        expect(subscribers[i].items.slice(0, -1).every((item: any) => item.result === null)).toBe(true);
      }
      for (const { ctId } of jobs) await mine.until((item) => item.ctId === ctId && item.status === 'completed', 60_000);
      for (const { ctId, upload } of jobs) expect(trail(mine.items, ctId)).toEqual(expected(upload ? UPLOAD_STEPS : ASSEMBLE_STEPS));
      expect(mine.errors).toEqual([]);
      // The job query shows the last event's number.
      const last = await client.graphql('query($id: String!) { job(ctId: $id) { seq step } }', { id: jobs[1].ctId });
      expect(last.body.data.job).toEqual({ seq: ASSEMBLE_STEPS.length, step: 'done' });
    } finally {
      await Promise.all([...subscribers, mine].map((sub) => sub.close()));
    }
  });

  it('a subscriber resuming with afterSeq gets exactly the steps after it; without it, the current state first', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const key = await issueKey(client, { scopes: ['read', 'build'] });
    const ctId = await startUpload(client);
    expect((await finalJob(client, ctId)).status).toBe('completed');
    const resumed = subscribe<Item>(app.url, jobSubscription, 'jobUpdated', { token: key.key }, { id: ctId, after: 3 });
    await resumed.done;
    expect(trail(resumed.items, ctId)).toEqual(expected(UPLOAD_STEPS).slice(3));
    const current = subscribe<Item>(app.url, jobSubscription, 'jobUpdated', { token: key.key }, { id: ctId });
    await current.done;
    expect(trail(current.items, ctId)).toEqual(expected(UPLOAD_STEPS).slice(-1));
  });

  it('the job_events rows of a finished assembly are its steps, numbered from 1, modeling once', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const ctId = await startAssembly(client, 99);
    expect((await finalJob(client, ctId)).status).toBe('completed');
    const rows = await app.services.db.query(
      'SELECT e.seq, e.status, e.step FROM job_events e JOIN jobs j ON j.id = e.job_id WHERE j.ct_id = $1 ORDER BY e.seq',
      [ctId],
    );
    expect(rows).toEqual(expected(ASSEMBLE_STEPS));
  });
});

describe('Job field resolvers', () => {
  it('costCredits of a list of jobs is one ledger read per request (DataLoader); not asked, not read', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const ctIds = [await startAssembly(client, 201), await startAssembly(client, 202), await startUpload(client)];
    const rest = await Promise.all(ctIds.map((ctId) => finalJob(client, ctId)));
    expect(rest.map((job) => job.status)).toEqual(['completed', 'completed', 'completed']);
    // The upload mints StatePopulation's 4 columns and a model: 4 × 100 + 500.
    expect(rest.map((job) => job.cost_credits)).toEqual([expect.any(Number), expect.any(Number), 900]);
    expect(rest[0].cost_credits).toBeGreaterThan(0);
    const reads = jest.spyOn(app.services.ledger, 'jobCosts');
    try {
      const listed = await client.graphql('{ jobs { ctId kind costCredits seq } }');
      expect(listed.body.data.jobs).toHaveLength(3);
      const costs = Object.fromEntries(listed.body.data.jobs.map((j: any) => [j.ctId, j.costCredits]));
      expect(ctIds.map((ctId) => costs[ctId])).toEqual(rest.map((job) => job.cost_credits));
      expect(reads).toHaveBeenCalledTimes(1);
      await client.graphql('{ jobs { ctId status } }');
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});
