import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { finalJob } from '../support/wait';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const scrape = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
const sample = (text: string, line: string): number | undefined => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

const uploadCsv = async (url: string, app: TestApp) => {
  const { client } = await signedIn(url, app.services, { credits: 100_000 });
  const form = new FormData();
  form.append('file', new Blob([await readFile(path.join(FIXTURES, 'sdc4/sources/StatePopulation.csv'))]), 'StatePopulation.csv');
  const res = await client.post('/api/v1/uploader/api/data-sources/', form);
  expect(res.status).toBe(202);
  return { client, jobCtId: res.body.job.ct_id as string };
};

describe('GET /metrics (METRICS=on, the default)', () => {
  it('counts requests and times them per route pattern, never per raw URL', async () => {
    await fetch(`${app.url}/api/v1/catalog/`);
    await fetch(`${app.url}/api/v1/catalog/`);
    await fetch(`${app.url}/api/v1/jobs/someunknownjob123/`);
    const { status, type, text } = await scrape(app.url);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v1/catalog/",status="200"}')).toBe(2);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v1/jobs/:ctId/",status="401"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/catalog/"}')).toBe(2);
    expect(text).not.toContain('someunknownjob123');
  });

  it('reports job durations per kind, pool use and stored validations', async () => {
    const { client, jobCtId } = await uploadCsv(app.url, app);
    expect((await finalJob(client, jobCtId)).status).toBe('completed');
    const { text } = await scrape(app.url);
    expect(sample(text, 'sdc_job_duration_seconds_count{kind="upload",status="completed"}')).toBe(1);
    expect(text).toMatch(/^sdc_cpu_pool\{measure="threads"\} \d+$/m);
    expect(text).toContain('# TYPE sdc_app_instances gauge');
    // Each job is observed once: a second scrape does not count it again.
    expect(sample((await scrape(app.url)).text, 'sdc_job_duration_seconds_count{kind="upload",status="completed"}')).toBe(1);
  });

  it('shows jobs waiting in the queue per kind', async () => {
    const idle = await startTestApp({}, { workers: false });
    try {
      await uploadCsv(idle.url, idle);
      expect(sample((await scrape(idle.url)).text, 'sdc_queue_depth{queue="upload",state="created"}')).toBe(1);
    } finally {
      await idle.close();
    }
  });
});

describe('METRICS setting', () => {
  it('token: answers 401 without the Bearer token and the metrics with it', async () => {
    const guarded = await startTestApp({ metrics: 'token', metricsToken: 'scrape-secret' }, { workers: false });
    try {
      const refused = await scrape(guarded.url);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('http_requests_total');
      expect((await scrape(guarded.url, { authorization: 'Bearer wrong-secret' })).status).toBe(401);
      const allowed = await scrape(guarded.url, { authorization: 'Bearer scrape-secret' });
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain('# TYPE http_requests_total counter');
    } finally {
      await guarded.close();
    }
  });

  it('off: /metrics is not served', async () => {
    const off = await startTestApp({ metrics: 'off' }, { workers: false });
    try {
      expect((await scrape(off.url)).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
