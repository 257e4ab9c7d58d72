import { spawn } from 'node:child_process';
import path from 'node:path';
import { makeUser, PASSWORD, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { ROOT, runCli } from '../support/process';
import { startTestApp, type TestApp } from '../support/app';
import { expectWithinBaseline } from '../support/baseline';

let app: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  env = { DATABASE_URL: app.databaseUrl };
});
afterAll(async () => {
  await app.close();
});

const login = async (email: string, password: string) => (await new HttpClient(app.url).post('/api/v1/auth/login/', { email, password })).status;

describe('the built CLI', () => {
  /** Runs `args` in Node with the CPU-time reporter; its exit code, stdout and CPU milliseconds. */
  async function withCpu(args: string[]) {
    const child = spawn(process.execPath, ['--require', path.join(ROOT, 'test/support/cpu-at-exit.js'), ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const cpu = JSON.parse(/cpu-us (.*)/.exec(stderr)![1]) as { user: number; system: number };
    return { code, stdout, cpuMs: (cpu.user + cpu.system) / 1000 };
  }

  it('starts and answers --help within a few bare Node starts of CPU time (the built file, no compile step)', async () => {
    const bare = await withCpu(['-e', '0']);
    const help = await withCpu([path.join(ROOT, 'dist/src/cli.js'), '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('user');
    expectWithinBaseline(help.cpuMs, bare.cpuMs, 100);
  });
});

describe('user list|promote|demote|reset-password', () => {
  it('lists every account with its staff flag', async () => {
    const plain = await makeUser(app.services);
    const staff = await makeUser(app.services, { staff: true });
    const res = await runCli(['user', 'list'], env);
    expect(res.code).toBe(0);
    expect(res.json.users).toEqual(
      expect.arrayContaining([
        { id: plain.id, email: plain.email, name: '', is_staff: false },
        { id: staff.id, email: staff.email, name: '', is_staff: true },
      ]),
    );
  });

  it('promotes a user to staff and demotes them again', async () => {
    const user = await makeUser(app.services);
    const promoted = await runCli(['user', 'promote', '--email', user.email.toUpperCase()], env);
    expect(promoted.json.user).toEqual({ id: user.id, email: user.email, name: '', is_staff: true });
    expect((await app.services.users.get(user.id)).isStaff).toBe(true);
    const demoted = await runCli(['user', 'demote', '--email', user.email], env);
    expect(demoted.json.user.is_staff).toBe(false);
    expect((await app.services.users.get(user.id)).isStaff).toBe(false);
  });

  it('resets a password: the new one signs in, the old one does not, and existing sessions end', async () => {
    const { user, client } = await signedIn(app.url, app.services);
    expect((await client.get('/api/v1/auth/me/')).status).toBe(200);
    const res = await runCli(['user', 'reset-password', '--email', user.email, '--password', 'a new long password'], env);
    expect(res.code).toBe(0);
    expect(res.json.user.email).toBe(user.email);
    expect((await client.get('/api/v1/auth/me/')).status).toBe(401);
    expect(await login(user.email, PASSWORD)).toBe(400);
    expect(await login(user.email, 'a new long password')).toBe(200);
  });

  it('refuses a short password and an unknown email with one JSON error object each', async () => {
    const user = await makeUser(app.services);
    const short = await runCli(['user', 'reset-password', '--email', user.email, '--password', 'short'], env);
    expect(short.code).toBe(1);
    expect(short.json).toEqual({ error: 'The password must have at least 8 characters.', error_type: 'invalid_request' });
    const unknown = await runCli(['user', 'promote', '--email', 'nobody@example.org'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error_type).toBe('not_found');
  });
});
