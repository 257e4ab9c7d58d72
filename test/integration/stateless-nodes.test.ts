import { createHash, randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/db/embedded-postgres';
import { zipFiles } from '../../src/packages/zip-files';
import { createTestDatabase } from '../support/database';
import { HttpClient } from '../support/http';
import { exitOf, ROOT, runCli, startService } from '../support/process';
import { startVirtuoso, type VirtuosoServer } from '../support/virtuoso';
import { waitFor } from '../support/wait';
import { form, REFERENCE_DIR, SP_CT_ID, STATE_POPULATION } from './app-helpers';

/** Issue 21: two gateway processes and two worker processes, each with its own empty STORAGE_DIR, share one
 * PostgreSQL and nothing else (STORAGE_URL unset: postgres:, the default with DATABASE_URL). */
jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery';
const fixture = (name: string) => readFileSync(path.join(STATE_POPULATION, name));
const SP_XSD = fixture(`dm-${SP_CT_ID}.xsd`);
const SP_XML = fixture(`dm-${SP_CT_ID}.xml`).toString('utf8');
const EMPTY_XSD = '<?xml version="1.0"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>';

type Service = ChildProcess & { output: () => string };
let database: { url: string; drop: () => Promise<void> };
let virtuoso: VirtuosoServer;
let db: Client;
const dirs: string[] = [];
const gateways: Array<{ url: string; port: number; dir: string; process: Service }> = [];
const workers: Service[] = [];
let appKey: string;
let env: Record<string, string>;

function spawnWorker(dir: string): Promise<Service> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env, ROLE: 'worker', STORAGE_DIR: dir, LOG_LEVEL: 'info' },
  }) as Service;
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  child.output = () => output;
  return waitFor(async () => output.includes('workers started') || child.exitCode !== null, Boolean, 60_000, 'a worker to start').then(() => {
    if (child.exitCode !== null) throw new Error(`worker exited:\n${output}`);
    return child;
  });
}

async function startGateway(dir: string, port: number): Promise<Service> {
  return startService({ ...env, ROLE: 'gateway', STORAGE_DIR: dir, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' }, port);
}

async function appCall(gateway: number, method: string, route: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const response = await fetch(gateways[gateway].url + route, { method, body: init.body, headers: { 'x-api-key': appKey, ...init.headers } });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : undefined, text };
}

const validate = (gateway: number) =>
  appCall(gateway, 'POST', '/api/v1/validate/xml/', {
    body: JSON.stringify({ xml_content: SP_XML }),
    headers: { 'content-type': 'application/json' },
  });
const uploadSchema = (gateway: number, name: string, content: string | Uint8Array) =>
  appCall(gateway, 'POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name, content }]) });

async function signedIn(gateway: number): Promise<HttpClient> {
  const email = `nodes-${randomBytes(4).toString('hex')}@example.org`;
  expect((await runCli(['user', 'create', '--email', email, '--password', PASSWORD], env)).code).toBe(0);
  expect((await runCli(['wallet', 'credit', '--email', email, '--credits', '5000'], env)).code).toBe(0);
  const client = new HttpClient(gateways[gateway].url);
  expect((await client.post('/api/v1/auth/login/', { email, password: PASSWORD })).status).toBe(200);
  return client;
}

/** What a node's own STORAGE_DIR holds outside its staging directory: nothing, on postgres:. */
async function localFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && !path.join(e.parentPath, e.name).includes(`${path.sep}.incoming`)).map((e) => e.name);
}

beforeAll(async () => {
  database = await createTestDatabase();
  virtuoso = await startVirtuoso();
  db = new Client({ connectionString: database.url });
  await db.connect();
  env = {
    DATABASE_URL: database.url,
    SCHEMA_CATALOG_DIR: REFERENCE_DIR,
    TRIPLESTORE_URL: virtuoso.graphStoreUrl,
    TRIPLESTORE_QUERY_URL: virtuoso.queryUrl,
    TRIPLESTORE_USER: virtuoso.user,
    TRIPLESTORE_PASSWORD: virtuoso.password,
  };
  for (let i = 0; i < 4; i++) dirs.push(await mkdtemp(path.join(tmpdir(), `stateless-node-${i}-`)));
  const ports = [await freePort(), await freePort()];
  const started = await Promise.all([startGateway(dirs[0], ports[0]), startGateway(dirs[1], ports[1]), spawnWorker(dirs[2]), spawnWorker(dirs[3])]);
  for (const i of [0, 1]) gateways.push({ url: `http://127.0.0.1:${ports[i]}`, port: ports[i], dir: dirs[i], process: started[i] });
  workers.push(started[2], started[3]);
  const issued = await runCli(['app-key', 'create', '--org', 'Nodes', '--email', 'ops@example.org'], env);
  appKey = issued.json.key.key;
}, 120_000);

afterAll(async () => {
  for (const child of [...gateways.map((g) => g.process), ...workers]) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exitOf(child);
    }
  }
  await db?.end();
  await database?.drop();
  await virtuoso?.dispose();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('stateless nodes on one PostgreSQL', () => {
  it('a schema uploaded through gateway 1 validates instances through gateway 2, and a replaced one is seen at once', async () => {
    const before = await validate(1);
    expect(before.body.error_code ?? before.body.error?.code).toBe('SCHEMA_NOT_FOUND');
    expect((await uploadSchema(0, `dm-${SP_CT_ID}.xsd`, SP_XSD)).status).toBe(201);
    const first = await validate(1);
    expect(first.status).toBe(201);
    expect(first.body.data.validation_status).toBe('valid');

    // Gateway 2 now holds the compiled set; a replacement through gateway 1 reaches it through NOTIFY.
    expect((await uploadSchema(0, `dm-${SP_CT_ID}.xsd`, EMPTY_XSD)).status).toBe(201);
    await waitFor(
      () => validate(1),
      (res) => res.status === 422,
      1000,
      'gateway 2 to drop the replaced schema',
    );
    expect((await uploadSchema(0, `dm-${SP_CT_ID}.xsd`, SP_XSD)).status).toBe(201);
    await waitFor(
      () => validate(1),
      (res) => res.status === 201,
      1000,
      'gateway 2 to take the restored schema',
    );
    expect(await localFiles(dirs[0])).toEqual([]);
    expect(await localFiles(dirs[1])).toEqual([]);
  });

  it('a package generated by a worker downloads through either gateway', async () => {
    const owner = await signedIn(0);
    const assembled = await owner.post('/api/v1/dmgen/assemble/', {
      title: 'Shared Nothing',
      data: { label: 'Shared Data', components: [{ label: 'Count', data_type: 'XdCount' }] },
    });
    expect(assembled.status).toBe(202);
    const job = `/api/v1/jobs/${assembled.body.job_ct_id}/`;
    const final = await waitFor(
      () => owner.get(job),
      (res) => ['completed', 'failed'].includes(res.body?.status),
      90_000,
      'the worker to finish the assembly',
    );
    expect(final.body.status).toBe('completed');
    const dmCtId = final.body.dm_ct_id as string;
    const downloads = await Promise.all(
      gateways.map(async (g) => {
        const res = await fetch(`${g.url}/api/v1/catalog/dm/${dmCtId}/package/`, { headers: { cookie: `sessionid=${owner.cookie('sessionid')}` } });
        return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
      }),
    );
    expect(downloads.map((d) => d.status)).toEqual([200, 200]);
    expect(downloads[0].bytes.subarray(0, 2).toString()).toBe('PK');
    expect(downloads[0].bytes.equals(downloads[1].bytes)).toBe(true);
    const stored = await db.query(`SELECT size FROM storage_names WHERE area = 'packages' AND name = $1`, [`dm-${dmCtId}.zip`]);
    expect(Number(stored.rows[0].size)).toBe(downloads[0].bytes.length);
    for (const dir of dirs) expect(await localFiles(dir)).toEqual([]);
  });

  it('an RDF upload on one gateway reaches the triplestore, and an instance validated on the other is synced by a worker', async () => {
    const rdf = await appCall(1, 'POST', '/api/v1/upload/rdf/', {
      body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: fixture(`dm-${SP_CT_ID}.ttl`) }]),
    });
    expect(rdf.status).toBe(201);
    expect(rdf.body.data.triplestore_status).toBe('synced');
    const validated = await validate(0);
    expect(validated.status).toBe(201);
    const id = validated.body.data.instance_id as string;
    const synced = await waitFor(
      () => appCall(1, 'GET', `/api/v1/instances/${id}/`),
      (res) => ['synced', 'failed'].includes(res.body?.data?.rdf_sync_status),
      30_000,
      'a worker to sync the instance',
    );
    expect(synced.body.data.rdf_sync_status).toBe('synced');
    // A sibling RDF file stored by gateway 2 is read back by gateway 1 when it rebuilds the schema graph.
    const shacl = await appCall(0, 'POST', '/api/v1/upload/rdf/', {
      body: form([{ field: 'file', name: `dm-${SP_CT_ID}.rdf`, content: fixture(`dm-${SP_CT_ID}.rdf`) }]),
    });
    expect(shacl.status).toBe(201);
    const names = await db.query(`SELECT name FROM storage_names WHERE area = 'dmlib' ORDER BY name`);
    expect(names.rows.map((r) => r.name)).toEqual(expect.arrayContaining([`dm-${SP_CT_ID}.rdf`, `dm-${SP_CT_ID}.ttl`]));
  });

  it('a ZIP uploaded on one gateway lists on the other node', async () => {
    const zip = await zipFiles([{ name: `dm-${SP_CT_ID}.xsd`, content: SP_XSD }]);
    const uploaded = await appCall(0, 'POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name: 'shared-nodes.zip', content: zip }]) });
    expect(uploaded.status).toBe(201);
    const listed = await runCli(['storage', 'list', 'zip'], { ...env, STORAGE_DIR: dirs[1] });
    expect(listed.json.files).toEqual([
      { name: uploaded.body.data.filename, size: zip.length, sha256: createHash('sha256').update(zip).digest('hex') },
    ]);
  });

  it('a key revoked on one gateway is refused on the other within a second', async () => {
    const owner = await signedIn(0);
    const issued = await owner.post('/api/v1/auth/api-tokens/', { name: 'shared' });
    expect(issued.status).toBe(201);
    const onOther = new HttpClient(gateways[1].url).withToken(issued.body.key);
    expect((await onOther.get('/api/v1/auth/api-tokens/')).status).toBe(200);
    expect((await owner.post(`/api/v1/auth/api-tokens/${issued.body.id}/revoke/`, {})).status).toBe(200);
    const revokedAt = Date.now();
    await waitFor(
      () => onOther.get('/api/v1/auth/api-tokens/'),
      (res) => res.status === 401,
      1000,
      'gateway 2 to refuse the revoked key',
    );
    console.log(`revoked key refused on the other gateway after ${Date.now() - revokedAt} ms`);
  });

  it('a gateway killed mid-upload (SIGKILL) loses nothing it acknowledged', async () => {
    const acknowledged = new Map<string, string>();
    let failures = 0;
    const uploads = [0, 1, 2].map(async (lane) => {
      for (let n = 0; ; n++) {
        const name = `dm-kill${lane}x${n}.html`;
        const content = randomBytes(1536 * 1024).toString('base64');
        try {
          const res = await uploadSchema(1, name, content);
          if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
          acknowledged.set(name, createHash('sha256').update(content).digest('hex'));
        } catch {
          failures++;
          return;
        }
      }
    });
    await waitFor(
      async () => acknowledged.size,
      (n) => n >= 3,
      60_000,
      'a few acknowledged uploads',
    );
    // Killed while an upload is streaming into the shared storage (its first chunk is in, its name is not).
    const pendingNow = async () => (await db.query(`SELECT count(*)::int AS n FROM storage_chunks WHERE blob LIKE 'pending:%'`)).rows[0].n as number;
    await waitFor(pendingNow, (n) => n > 0, 60_000, 'an upload streaming into the storage');
    const killed = gateways[1].process;
    killed.kill('SIGKILL');
    expect(await exitOf(killed)).toEqual({ code: null, signal: 'SIGKILL' });
    await Promise.all(uploads);
    expect(failures).toBe(3);

    const stored = await db.query(`SELECT name, sha256 FROM storage_names WHERE area = 'dmlib' AND name LIKE 'dm-kill%'`);
    const byName = new Map(stored.rows.map((r) => [r.name as string, r.sha256 as string]));
    for (const [name, sha256] of acknowledged) expect(byName.get(name)).toBe(sha256);
    // Every acknowledged file downloads whole through the surviving gateway's storage, chunk by chunk.
    const chunks = await db.query(
      `SELECT b.sha256, b.chunk_count, count(c.seq)::int AS present FROM storage_blobs b LEFT JOIN storage_chunks c ON c.blob = b.sha256 GROUP BY b.sha256`,
    );
    for (const row of chunks.rows) expect(row.present).toBe(row.chunk_count);
    // What the killed uploads had streamed in is only pending chunks, which a collection removes. (Whether the
    // kill caught chunks in flight depends on timing: an upload may commit between the wait above and the kill.)
    const pending = await pendingNow();
    expect((await runCli(['storage', 'gc', '--grace-seconds', '0'], env)).code).toBe(0);
    expect(await pendingNow()).toBe(0);
    for (const [name, sha256] of acknowledged) expect(byName.get(name)).toBe(sha256);
    console.log(`SIGKILL mid-upload: ${acknowledged.size} acknowledged uploads all stored, ${failures} cut off, ${pending} pending chunks collected`);

    gateways[1].process = await startGateway(dirs[1], gateways[1].port);
    expect((await validate(1)).status).toBe(201);
  });
});
