import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/db/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { exitOf, runCli, startService } from '../support/process';

const SDC4 = path.resolve(__dirname, '../../../shared/fixtures/sdc4');
const SDC4_XSD = readFileSync(path.join(SDC4, 'reference/sdc4.xsd'));
const DM = 'its7j6bvrb9n2fxdcxmoemod';
const SP_XSD = readFileSync(path.join(SDC4, `packages/StatePopulation/dm-${DM}.xsd`));
const SP_XML = readFileSync(path.join(SDC4, `packages/StatePopulation/dm-${DM}.xml`), 'utf8');

/** Stands in for semanticdatacharter.com: serves /ns/sdc4/sdc4.xsd and counts what it was asked. */
async function startMirror(): Promise<{ base: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/ns/sdc4/sdc4.xsd') res.writeHead(200, { 'content-type': 'application/xml' }).end(SDC4_XSD);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { base: `http://127.0.0.1:${port}/ns/sdc4/`, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A fresh `npm start` (ROLE=app, no SCHEMA_CATALOG_DIR, no sdc4.xsd anywhere on disk) with only the mirror reachable. */
describe('the SDC4 reference schema, zero steps', () => {
  jest.setTimeout(180000);

  it('is fetched on first use, stored with its sha256, and serves every later process offline', async () => {
    const database = await createTestDatabase();
    const storage = await mkdtemp(path.join(os.tmpdir(), 'sdc-reference-'));
    const mirror = await startMirror();
    const env = { DATABASE_URL: database.url, ROLE: 'app', STORAGE_DIR: storage, SDC4_SCHEMA_MIRROR: mirror.base, LOG_FORMAT: '' };
    try {
      const key = (await runCli(['app-key', 'create', '--org', 'Reference Org', '--email', 'ops@example.org'], env)).json.key.key as string;
      const validate = async (port: number) => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/validate/xml/`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ xml_content: SP_XML }),
        });
        return { status: res.status, body: await res.json() };
      };

      const port = await freePort();
      const first = await startService(env, port);
      try {
        const schema = new FormData();
        schema.append('files', new Blob([SP_XSD]), `dm-${DM}.xsd`);
        const upload = await fetch(`http://127.0.0.1:${port}/api/v1/upload/schema/`, { method: 'POST', headers: { 'x-api-key': key }, body: schema });
        expect(upload.status).toBe(201);
        const valid = await validate(port);
        expect(valid).toMatchObject({ status: 201, body: { data: { dm_ct_id: DM, validation_status: 'valid' } } });
      } finally {
        first.kill('SIGTERM');
      }
      await exitOf(first);
      expect(mirror.asked).toEqual(['/ns/sdc4/sdc4.xsd']);

      const requestLine = first
        .output()
        .split('\n')
        .find((line) => line.includes('POST /api/v1/validate/xml/'));
      expect(JSON.parse(requestLine!)).toMatchObject({
        reqId: expect.any(String),
        msg: expect.stringMatching(/^POST \/api\/v1\/validate\/xml\/ 201 \d+ ms$/),
      });
      expect(requestLine!.length).toBeLessThan(300);

      const client = new Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query('SELECT url, sha256, fetched_from FROM reference_schemas').finally(() => client.end());
      expect(rows).toEqual([
        {
          url: 'https://semanticdatacharter.com/ns/sdc4/sdc4.xsd',
          sha256: createHash('sha256').update(SDC4_XSD).digest('hex'),
          fetched_from: `${mirror.base}sdc4.xsd`,
        },
      ]);

      await mirror.close();
      const offlinePort = await freePort();
      const second = await startService(env, offlinePort);
      try {
        expect(await validate(offlinePort)).toMatchObject({ status: 201, body: { data: { validation_status: 'valid' } } });
      } finally {
        second.kill('SIGTERM');
      }
      await exitOf(second);
    } finally {
      await mirror.close().catch(() => undefined);
      await rm(storage, { recursive: true, force: true });
      await database.drop();
    }
  });
});
