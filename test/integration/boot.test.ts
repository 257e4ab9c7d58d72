import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded-postgres';
import { HttpClient } from '../support/http';
import { exitOf, runCli, startService } from '../support/process';

/** The newcomer's path: `npm start` on its own embedded Postgres (no DATABASE_URL), the CLI beside it, a clean
 * SIGTERM, and a second start that finds the same data. */
describe('npm start on embedded Postgres', () => {
  jest.setTimeout(180000);

  it('boots, serves keys, shuts down cleanly and reuses its data on the next start', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sdc-boot-'));
    // mkdtemp makes 0700; the embedded Postgres (the postgres user under root) must cross it.
    await chmod(dir, 0o755);
    const env = { EMBEDDED_PG_DIR: path.join(dir, 'pg'), STORAGE_DIR: path.join(dir, 'storage'), DATABASE_URL: '' };
    const port = await freePort();
    const first = await startService(env, port);
    try {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', storage: 'ok' });

      const created = await runCli(['user', 'create', '--email', 'boot@example.org', '--password', 'boot-password'], env);
      expect(created.code).toBe(0);
      expect(created.json.user).toMatchObject({ email: 'boot@example.org', is_staff: false });
      const credited = await runCli(['wallet', 'credit', '--email', 'boot@example.org', '--credits', '10000'], env);
      expect(credited.json.wallet).toMatchObject({ balance_credits: 10000, balance: '10.000' });

      const client = new HttpClient(`http://127.0.0.1:${port}`);
      expect((await client.post('/api/v1/auth/login/', { email: 'boot@example.org', password: 'boot-password' })).status).toBe(200);
      const key = await client.post('/api/v1/auth/api-tokens/', { name: 'boot' });
      expect(key.status).toBe(201);
      const listed = await client.withToken(key.body.key).get('/api/v1/auth/api-tokens/');
      expect(listed.body.map((k: { name: string }) => k.name)).toEqual(['boot']);
    } finally {
      first.kill('SIGTERM');
    }
    const exit = await exitOf(first);
    expect(exit.code).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = await startService(env, port);
    try {
      const client = new HttpClient(`http://127.0.0.1:${port}`);
      const login = await client.post('/api/v1/auth/login/', { email: 'boot@example.org', password: 'boot-password' });
      expect(login.status).toBe(200);
      expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(10000);
    } finally {
      second.kill('SIGTERM');
      await exitOf(second);
    }
  });
});
