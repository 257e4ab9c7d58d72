import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { issueKey, signedIn } from '../support/factories';

/** GraphiQL at /graphql in Chromium, signed in nowhere: a key typed in its headers pane (as `Authorization`,
 * capitalised, which GraphiQL passes on in graphql-ws's connection_init) streams a subscription. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  // A pause after each pipeline step, so the job is still running when GraphiQL subscribes.
  app = await startTestApp({ pipelineStepDelayMs: 400 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('GraphiQL in Chromium', () => {
  jest.setTimeout(90_000);

  it('with a key in its headers pane, streams a job subscription to its final state', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const { key } = await issueKey(client);
    const queued = await client.post('/api/v1/dmgen/assemble/', {
      title: 'Streamed in GraphiQL',
      data: { label: 'Streamed Data', components: [{ label: 'Seen', data_type: 'XdBoolean' }] },
    });
    expect(queued.status).toBe(202);
    const jobCtId = (queued.body as { job_ct_id: string }).job_ct_id;

    const page = await browser.newPage();
    await page.goto(`${app.url}/graphql`);
    // Typed as a user would, through GraphiQL's own CodeMirror editors.
    const setEditor = (selector: string, value: string) =>
      page.evaluate(
        ({ selector, value }) =>
          (document.querySelector(selector) as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(value),
        { selector, value },
      );
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
    await setEditor('.graphiql-query-editor .CodeMirror', `subscription { jobUpdated(ctId: "${jobCtId}") { ctId status step } }`);
    await page.getByRole('button', { name: 'Headers' }).click();
    await setEditor('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror', JSON.stringify({ Authorization: `Token ${key}` }));
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    await response.getByText(jobCtId).waitFor({ timeout: 30_000 });
    await response.getByText('"completed"').waitFor({ timeout: 60_000 });
    expect(await response.innerText()).not.toMatch(/error/i);
    await page.close();
  });
});
