import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'pg';
import { CHUNK_BYTES, PgStorage } from '../../src/storage/pg-storage';
import { readAll, readBytes } from '../../src/storage/storage';
import { startTestApp, type TestApp } from '../support/app';
import { signedIn } from '../support/factories';
import { runCli } from '../support/process';
import { form, REFERENCE_DIR, SP_CT_ID, STATE_POPULATION } from './app-helpers';

/** The storage interface's postgres: backend on the real database, the file: → postgres: migration command, and
 * storage failures in each interface's error shape. */
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('postgres: storage', () => {
  let app: TestApp;
  let storage: PgStorage;
  let db: Client;
  beforeAll(async () => {
    app = await startTestApp({ storageUrl: 'postgres:', schemaCatalogDir: REFERENCE_DIR });
    storage = app.services.app.storage as PgStorage;
    db = new Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.close();
  });

  it('streams a file in and out in 1 MiB chunks, by its sha256', async () => {
    expect(storage.kind).toBe('postgres');
    const content = randomBytes(2 * CHUNK_BYTES + 12345);
    // Uneven pieces: the chunking does not depend on how the source is cut.
    const pieces = [content.subarray(0, 1000), content.subarray(1000, CHUNK_BYTES + 7), content.subarray(CHUNK_BYTES + 7)];
    expect(await storage.put('packages', 'big.zip', Readable.from(pieces))).toEqual({ sha256: sha(content), size: content.length });
    const chunks = await db.query('SELECT seq, length(bytes) AS n FROM storage_chunks WHERE blob = $1 ORDER BY seq', [sha(content)]);
    expect(chunks.rows).toEqual([
      { seq: 0, n: CHUNK_BYTES },
      { seq: 1, n: CHUNK_BYTES },
      { seq: 2, n: 12345 },
    ]);
    expect((await readAll((await storage.get('packages', 'big.zip'))!)).equals(content)).toBe(true);
    expect(await storage.exists('packages', 'big.zip')).toBe(true);
    expect(await storage.get('packages', 'missing.zip')).toBeNull();
  });

  it('stores one blob for the same content under two names, and collects it once neither references it', async () => {
    const content = Buffer.from(`shared ${randomBytes(8).toString('hex')}`);
    await storage.put('dmlib', 'dm-one.html', content);
    await storage.put('zip', 'two.zip', content);
    const count = async () => (await db.query('SELECT count(*)::int AS n FROM storage_blobs WHERE sha256 = $1', [sha(content)])).rows[0].n;
    expect(await count()).toBe(1);
    expect((await storage.list('zip')).find((e) => e.name === 'two.zip')).toEqual({ name: 'two.zip', size: content.length, sha256: sha(content) });

    expect(await storage.delete('dmlib', 'dm-one.html')).toBe(true);
    await storage.gc(0);
    expect(await count()).toBe(1);
    // Replacing the last name unreferences the old content; it survives the grace period, then goes.
    await storage.put('zip', 'two.zip', Buffer.from('replaced'));
    expect(await storage.gc(3600_000)).toBe(0);
    expect(await count()).toBe(1);
    expect(await storage.gc(0)).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(0);
    expect((await readBytes(storage, 'zip', 'two.zip'))!.toString()).toBe('replaced');
  });

  it('a source that fails mid-stream leaves the old content and no chunks behind', async () => {
    await storage.put('apps', 'app.zip', Buffer.from('old'));
    async function* failing() {
      yield randomBytes(CHUNK_BYTES + 1);
      throw new Error('client went away');
    }
    await expect(storage.put('apps', 'app.zip', Readable.from(failing()))).rejects.toThrow('client went away');
    expect((await readBytes(storage, 'apps', 'app.zip'))!.toString()).toBe('old');
    expect((await db.query(`SELECT count(*)::int AS n FROM storage_chunks WHERE blob LIKE 'pending:%'`)).rows[0].n).toBe(0);
  });

  it('a replaced schema is dropped from the compiled-schema cache of this node', async () => {
    const schemas = app.services.app.schemas;
    const xsd = await readFile(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`));
    await storage.put('dmlib', `dm-${SP_CT_ID}.xsd`, xsd);
    await schemas.forModel(SP_CT_ID);
    expect(schemas.size).toBe(1);
    await storage.put('dmlib', `dm-${SP_CT_ID}.xsd`, xsd);
    expect(schemas.size).toBe(0);
  });
});

describe('storage migrate --from file:<dir> --to postgres:', () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'storage-migrate-'));
    app = await startTestApp({ storageUrl: 'postgres:' }, { workers: false });
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('copies every area once; a second run copies nothing', async () => {
    const files = {
      'zip/a.zip': randomBytes(3000),
      'dmlib/dm-abc.xsd': Buffer.from('<xs:schema/>'),
      'packages/dm-abc.zip': randomBytes(CHUNK_BYTES + 1),
    };
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), content);
    }
    await mkdir(path.join(dir, '.incoming'), { recursive: true });
    await writeFile(path.join(dir, '.incoming', 'leftover.part'), 'staged, not stored');
    const env = { DATABASE_URL: app.databaseUrl };
    const first = await runCli(['storage', 'migrate', '--from', `file:${dir}`, '--to', 'postgres:'], env);
    expect(first.code).toBe(0);
    expect(first.json.migrated).toMatchObject({ copied: 3, unchanged: 0, areas: { zip: 1, dmlib: 1, packages: 1, apps: 0 } });
    const again = await runCli(['storage', 'migrate', '--from', `file:${dir}`, '--to', 'postgres:'], env);
    expect(again.json.migrated).toMatchObject({ copied: 0, unchanged: 3 });
    for (const [name, content] of Object.entries(files)) {
      const [area, file] = name.split('/') as ['zip' | 'dmlib' | 'packages', string];
      expect((await readBytes(app.services.app.storage, area, file))!.equals(content)).toBe(true);
    }
    // A file changed since the last run is copied again.
    await writeFile(path.join(dir, 'zip/a.zip'), 'changed');
    const third = await runCli(['storage', 'migrate', '--from', `file:${dir}`, '--to', 'postgres:'], env);
    expect(third.json.migrated).toMatchObject({ copied: 1, unchanged: 2 });
  });
});

describe('storage failures', () => {
  let app: TestApp;
  let staging: string;
  let stored: string;
  beforeAll(async () => {
    staging = await mkdtemp(path.join(tmpdir(), 'storage-staging-'));
    stored = await mkdtemp(path.join(tmpdir(), 'storage-broken-'));
    app = await startTestApp({ storageDir: staging, storageUrl: `file:${stored}` });
    await app.services.packages.importPackage(STATE_POPULATION);
    await rm(stored, { recursive: true });
    await writeFile(stored, 'not a directory');
  });
  afterAll(async () => {
    await app?.close();
    await rm(staging, { recursive: true, force: true });
    await rm(stored, { force: true });
  });

  it('Interface B answers 503 STORAGE_UNAVAILABLE in its general format', async () => {
    const { plaintext } = await app.services.app.keys.create({ organization: 'Broken Org', contactEmail: 'ops@example.org' });
    const res = await fetch(`${app.url}/api/v1/upload/schema/`, {
      method: 'POST',
      headers: { 'x-api-key': plaintext },
      body: form([{ field: 'files', name: `dm-${SP_CT_ID}.html`, content: '<html></html>' }]),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      success: false,
      error: 'The file storage is unavailable right now; try again shortly.',
      errors: { storage: ['unavailable; try again shortly'] },
      error_code: 'STORAGE_UNAVAILABLE',
    });
  });

  it('the studio answers 503 storage_unavailable for a stored package it cannot read, and /readyz reports the storage', async () => {
    const { client } = await signedIn(app.url, app.services);
    const res = await client.get(`/api/v1/catalog/dm/${SP_CT_ID}/package/`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error_type: 'storage_unavailable' });
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', database: 'ok', storage: 'unavailable', storage_error: 'file: ENOTDIR' });
  });
});
