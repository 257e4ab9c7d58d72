import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { freePort } from '../../src/db/embedded-postgres';
import { generateAppPackage } from '../../src/packages/app-package';
import { generateModelFiles } from '../../src/packages/model-package';
import { readPackageFiles } from '../../src/packages/package-reader';
import { flatModel } from '../unit/packages/package-support';
import { createTestDatabase } from '../support/database';
import { exitOf, ROOT } from '../support/process';

const SDC4_XSD = readFileSync(path.resolve(__dirname, '../../../shared/fixtures/sdc4/reference/sdc4.xsd'));
const IMAGE_CMD = JSON.parse(/^CMD (\[.*\])$/m.exec(readFileSync(path.join(ROOT, 'docker/Dockerfile'), 'utf8'))![1]) as string[];

/** The application package as a user gets it: unpacked, started with the container's own command and its compose
 * environment (Postgres, the mounts and the SDC4 host replaced by local stand-ins; no triplestore here), then the
 * README's staff-account and key steps, then a validation of the model's example instance. */
describe('a generated application package, run as its README says', () => {
  jest.setTimeout(180000);

  it('starts, reads app.json, takes the README steps and validates the model instance with no sdc4.xsd on disk', async () => {
    const model = flatModel();
    const modelFiles = generateModelFiles(model);
    const work = await mkdtemp(path.join(os.tmpdir(), 'sdc-app-run-'));
    const database = await createTestDatabase();
    const mirror = http.createServer((req, res) => (req.url === '/ns/sdc4/sdc4.xsd' ? res.end(SDC4_XSD) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    const mirrorPort = (mirror.address() as { port: number }).port;
    try {
      await writeFile(
        path.join(work, 'app.zip'),
        await generateAppPackage({ appName: 'Run Test', profile: 'os', models: [{ model, files: modelFiles }] }),
      );
      for (const file of await readPackageFiles(path.join(work, 'app.zip'))) {
        await mkdir(path.dirname(path.join(work, file.name)), { recursive: true });
        await writeFile(path.join(work, file.name), file.content);
      }
      const folder = path.join(work, 'run-test');
      const compose = parse(readFileSync(path.join(folder, 'docker-compose.yml'), 'utf8')) as {
        services: { app: { environment: Record<string, string>; volumes: string[] } };
      };
      const service = compose.services.app;

      const configSource = readFileSync(path.join(ROOT, 'dist/src/config.js'), 'utf8');
      expect(Object.keys(service.environment).filter((name) => !configSource.includes(`'${name}'`) && !configSource.includes(`.${name}`))).toEqual(
        [],
      );

      const storage = path.join(work, 'storage');
      expect(service.volumes).toEqual(expect.arrayContaining(['./app.json:/config/app.json:ro', './dmlib:/data/storage/dmlib']));
      await cp(path.join(folder, 'dmlib'), path.join(storage, 'dmlib'), { recursive: true });
      const port = await freePort();
      const env: Record<string, string | undefined> = {
        ...process.env,
        ...service.environment,
        DATABASE_URL: database.url,
        STORAGE_DIR: storage,
        APP_CONFIG: path.join(folder, 'app.json'),
        SDC4_SCHEMA_MIRROR: `http://127.0.0.1:${mirrorPort}/ns/sdc4/`,
        PORT: String(port),
        LOG_LEVEL: 'info',
        TRIPLESTORE_URL: '',
        TRIPLESTORE_QUERY_URL: '',
      };
      const app = spawn(process.execPath, IMAGE_CMD.slice(1), { cwd: ROOT, env });
      let output = '';
      app.stdout.on('data', (c) => (output += c));
      app.stderr.on('data', (c) => (output += c));
      try {
        const healthy = () => spawnSync(process.execPath, ['docker/healthcheck.js'], { cwd: ROOT, env }).status === 0;
        const deadline = Date.now() + 60000;
        while (!healthy() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
        expect(healthy()).toBe(true);
        expect(output).toContain('application configured');
        expect(output).not.toContain('not in the storage');

        const readme = readFileSync(path.join(folder, 'README.md'), 'utf8');
        const steps = [...readme.matchAll(/docker compose exec app node (dist\/src\/cli\.js [^`\n]*)/g)].map((m) => m[1]);
        expect(steps).toHaveLength(2);
        const results = steps.map((step) => {
          const args = step.match(/'[^']*'|\S+/g)!.map((arg) => arg.replace(/^'|'$/g, ''));
          const run = spawnSync(process.execPath, [...args, '--json'], { cwd: ROOT, env: { ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8' });
          return JSON.parse(run.stdout);
        });
        expect(results[0].user).toMatchObject({ email: 'you@example.org', is_staff: true });

        const instance = modelFiles.find((file) => file.name === `dm-${model.ctId}.xml`)!;
        const body = new FormData();
        body.append('file', new Blob([Buffer.from(instance.content)]), instance.name);
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/validate/xml/`, {
          method: 'POST',
          headers: { 'x-api-key': results[1].key.key },
          body,
        });
        expect({ status: res.status, body: await res.json() }).toMatchObject({
          status: 201,
          body: { data: { dm_ct_id: model.ctId, validation_status: 'valid' } },
        });
      } finally {
        app.kill('SIGTERM');
      }
      expect((await exitOf(app)).code).toBe(0);
    } finally {
      await new Promise((resolve) => mirror.close(resolve));
      await database.drop();
      await rm(work, { recursive: true, force: true });
    }
  });
});
