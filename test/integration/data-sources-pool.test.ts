import { loadSettings } from '../../src/config';
import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { finalJob } from '../support/wait';

/** The upload job's CSV parsing in the CPU pool: the file streamed to the thread in parts, the CSV limits and the
 * task budget enforced there, each failure a clear job error. */
const cpu = loadSettings({}).cpu;

async function upload(app: TestApp, content: string, filename = 'data.csv') {
  const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
  const form = new FormData();
  form.append('file', new Blob([content]), filename);
  const res = await client.post('/api/v1/uploader/api/data-sources/', form);
  expect(res.status).toBe(202);
  return finalJob(client, res.body.job.ct_id);
}

/** `rows` data rows of an integer, a decimal, a date and a quoted text with a comma and a line break. */
const table = (rows: number) =>
  `id,price,when\n${Array.from({ length: rows }, (_, i) => `${i},${i}.5,2024-01-${String((i % 28) + 1).padStart(2, '0')}`).join('\n')}\n`;

describe('CSV upload jobs in the pool', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ cpu: { ...cpu, thread: { ...cpu.thread, csv: { ...cpu.thread.csv, maxColumns: 3, maxCellLength: 1000 } } } });
  });
  afterAll(() => app?.close());

  it('infers the columns of a file read in several parts (multi-byte characters included)', async () => {
    const content = `${table(100_000)}7,1.5,2024-02-03\n`.replace('id,price,when', 'id,prix é,when');
    expect(Buffer.byteLength(content)).toBeGreaterThan(2 * 1024 * 1024);
    const job = await upload(app, content);
    expect(job.status).toBe('completed');
    expect(job.result.columns).toEqual([
      { label: 'id', data_type: 'XdCount' },
      { label: 'prix é', data_type: 'XdQuantity' },
      { label: 'when', data_type: 'XdTemporal' },
    ]);
  });

  it('refuses a header past the column limit at once (it is priced on admission), fails the job past a cell limit', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100_000 });
    const form = new FormData();
    form.append('file', new Blob(['a,b,c,d\n1,2,3,4\n']), 'wide.csv');
    const wide = await client.post('/api/v1/uploader/api/data-sources/', form);
    expect(wide.status).toBe(400);
    expect(wide.body.error).toContain('The CSV has more than 3 columns (CSV_MAX_COLUMNS).');
    expect(await upload(app, `a\n${'x'.repeat(1001)}\n`)).toMatchObject({
      status: 'failed',
      error: 'A CSV cell is longer than 1000 characters (CSV_MAX_CELL_LENGTH).',
    });
  });
});

describe('a CSV past the task budget', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ cpu: { ...cpu, taskBudgetMs: 50 } });
  });
  afterAll(() => app?.close());

  it('fails the job with the budget named', async () => {
    const job = await upload(app, table(400_000));
    expect(job).toMatchObject({ status: 'failed', error: 'Reading the CSV took longer than the 50 ms budget (CPU_TASK_BUDGET_MS).' });
  });
});
