import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../src/db/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { FormClient, newKeyOf } from '../support/forms';
import { exitOf, runCli, startService } from '../support/process';

/** The service as its own process, logging everything (debug, JSON): keys made on the account pages never reach
 * its output, whatever page, redirect or API call follows. Needs `npm run build`. */
describe('account pages and the service log', () => {
  jest.setTimeout(120_000);
  let service: ChildProcess & { output: () => string };
  let base: string;
  let env: Record<string, string>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    env = { DATABASE_URL: database.url, LOG_LEVEL: 'debug', LOG_FORMAT: 'json' };
    const port = await freePort();
    service = await startService(env, port);
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    service?.kill('SIGTERM');
    if (service) await exitOf(service);
    await drop?.();
  });

  it('logs each page request without any key made, rotated or generated on the pages', async () => {
    const email = 'logged@example.org';
    await runCli(['user', 'create', '--email', email, '--password', 'correct horse battery'], env);
    const client = new FormClient(base);
    await client.get('/account/login/');
    expect((await client.post('/account/login/', { email, password: 'correct horse battery' })).status).toBe(303);
    await client.get('/account/keys/');
    const created = newKeyOf((await client.post('/account/keys/', { name: 'logged', scopes: ['build'], spend_limit_credits: '5000' })).text)!;
    const id = /data-key-id="(\d+)"/.exec(client.answers[client.answers.length - 1].text)![1];
    const rotated = newKeyOf((await client.post(`/account/keys/${id}/rotate/`, { confirm: 'yes' })).text)!;
    const legacy = newKeyOf((await client.post('/account/keys/legacy/', { confirm: 'yes' })).text)!;
    for (const key of [created, rotated, legacy]) {
      await fetch(`${base}/api/v1/auth/api-tokens/`, { headers: { authorization: `Token ${key}` } });
    }
    for (const path of ['/account/keys/', '/account/wallet/', '/account/jobs/', '/catalog/']) await client.get(path);
    await client.post('/account/logout/');

    // Wait until the last request's line is out, then look at everything the process wrote.
    const deadline = Date.now() + 10_000;
    while (!service.output().includes('POST /account/logout/ 303') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const output = service.output();
    expect(output).toContain('POST /account/keys/ 201');
    expect(output).toContain('GET /api/v1/auth/api-tokens/ 401');
    for (const key of [created, rotated, legacy]) {
      expect(key).toMatch(/^sdc_/);
      expect(output).not.toContain(key);
      expect(output).not.toContain(key.slice(12));
    }
  });
});
