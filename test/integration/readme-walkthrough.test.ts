import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestApp } from '../support/app';
import { ROOT } from '../support/process';

/** The README's walkthrough block, exactly as a reader copies it. */
function walkthrough(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- walkthrough:begin -->\n```sh\n([\s\S]*?)```\n<!-- walkthrough:end -->/.exec(readme);
  if (!block) throw new Error('README.md has no walkthrough block');
  return block[1];
}

// This machine is offline: the SDC4 reference schema comes from the fixtures, as the README says for that case.
const REFERENCE = path.resolve(ROOT, '../shared/fixtures/sdc4/reference');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ schemaCatalogDir: REFERENCE });
});
afterAll(async () => {
  await app.close();
});

it('the README walkthrough runs top to bottom against a started service', async () => {
  const child = spawn('bash', ['-c', walkthrough()], {
    cwd: ROOT,
    env: { ...process.env, B: app.url.replace(/\/$/, ''), DATABASE_URL: app.databaseUrl, LOG_LEVEL: 'silent' },
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`walkthrough exited with ${code}:\n${output}`);
  expect(output).toContain('"validation_status":"valid"');
  expect(output).toContain('"validation_status":"valid_with_ev"');
  expect(output).toMatch(/"status":"completed"/);
  expect(output).toContain('walkthrough complete');
}, 180_000);
