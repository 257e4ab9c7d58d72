import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded-postgres';
import { exitOf, startService } from '../support/process';

/** Issue 15: an embedded PostgreSQL left running by a service that was killed is not adopted forever: the next start
 * stops it and starts its own, and stops that one at exit. */
jest.setTimeout(240_000);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'robust-orphan-'));
  await chmod(dir, 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

it('stops the Postgres a killed service left running, then stops its own at exit', async () => {
  const dataDir = path.join(dir, 'pg');
  const env = { EMBEDDED_PG_DIR: dataDir, STORAGE_DIR: path.join(dir, 'storage'), DATABASE_URL: '' };
  const crashed = await startService(env, await freePort(), 120_000);
  const orphan = await postmasterPid(dataDir);
  crashed.kill('SIGKILL');
  await exitOf(crashed);
  expect(alive(orphan)).toBe(true);

  const next = await startService(env, await freePort(), 120_000);
  expect(alive(orphan)).toBe(false);
  expect(next.output()).toContain('left running by a process that died');
  const own = await postmasterPid(dataDir);
  expect(own).not.toBe(orphan);
  next.kill('SIGINT');
  expect((await exitOf(next)).code).toBe(0);
  const deadline = Date.now() + 30_000;
  while (alive(own) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(alive(own)).toBe(false);
});
