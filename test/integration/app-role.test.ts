import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../src/db/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { exitOf, runCli, startService } from '../support/process';
import { form, REFERENCE_DIR, SP_CT_ID, STATE_POPULATION } from './app-helpers';

/** `ROLE=app`: the generated application alone, as its own process. */
describe('ROLE=app', () => {
  jest.setTimeout(120_000);
  let service: ChildProcess;
  let base: string;
  let key: string;
  let dir: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    dir = await mkdtemp(path.join(os.tmpdir(), 'app-role-'));
    const env = { DATABASE_URL: database.url, ROLE: 'app', STORAGE_DIR: dir, SCHEMA_CATALOG_DIR: REFERENCE_DIR };
    const port = await freePort();
    service = await startService(env, port);
    base = `http://127.0.0.1:${port}`;
    key = (await runCli(['app-key', 'create', '--org', 'Role Org', '--email', 'role@org.test'], env)).json.key.key;
  });

  afterAll(async () => {
    service?.kill('SIGTERM');
    if (service) await exitOf(service);
    await drop?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the application API, health and the admin pages', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/admin/login/`)).headers.get('content-type')).toContain('text/html');
    const xsd = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`));
    const uploaded = await fetch(`${base}/api/v1/upload/schema`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: xsd }]),
    });
    expect(uploaded.status).toBe(201);
    const validated = await fetch(`${base}/api/v1/validate/xml/`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ xml_content: readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`), 'utf8') }),
    });
    expect(validated.status).toBe(201);
    expect((await validated.json()).data.validation_status).toBe('valid');
  });

  it('does not serve the studio: its routes and GraphQL are 404 in the general format', async () => {
    for (const route of ['/api/v1/auth/me/', '/api/v1/jobs/', '/graphql', '/graphiql']) {
      const res = await fetch(`${base}${route}`, { headers: { 'x-api-key': key } });
      expect({ route, status: res.status }).toEqual({ route, status: 404 });
      expect(await res.json()).toMatchObject({ success: false, error_code: 'NOT_FOUND' });
    }
  });
});
