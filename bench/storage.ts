import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readAll } from '../src/storage/storage';
import { recordResults } from './results';
import { load, printTable, startBenchService } from './support';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.resolve(ROOT, '../shared/fixtures');
const CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
const PACKAGE = path.join(FIXTURES, 'sdc4/packages/StatePopulation');
const BLOB_BYTES = 16 * 1024 * 1024;

/** bench:storage — the same service on each storage backend (STORAGE_URL file: and postgres:): POST validate/xml/
 * (the compiled schema is cached, so no storage call per request), GET of a stored package ZIP through the studio,
 * and the backend alone writing and reading a 16 MiB blob. */
async function measureBackend(storageUrl: 'file:' | 'postgres:', durationSeconds: number) {
  const service = await startBenchService({ storageUrl, anonymousReadsPerHour: 1_000_000, schemaCatalogDir: path.join(FIXTURES, 'sdc4/reference') });
  try {
    const { app, packages } = service.services;
    const { plaintext } = await app.keys.create({ organization: 'Bench', contactEmail: 'bench@example.org' });
    const form = new FormData();
    form.append('files', new Blob([readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xsd`))]), `dm-${CT_ID}.xsd`);
    const uploaded = await fetch(`${service.url}/api/v1/upload/schema/`, { method: 'POST', body: form, headers: { 'x-api-key': plaintext } });
    if (uploaded.status !== 201) throw new Error(`schema upload failed: ${uploaded.status} ${await uploaded.text()}`);
    await packages.importPackage(PACKAGE);
    const packageUrl = `${service.url}/api/v1/catalog/dm/${CT_ID}/package/`;
    const zip = await fetch(packageUrl);
    if (zip.status !== 200) throw new Error(`package download failed: ${zip.status}`);
    const zipBytes = (await zip.arrayBuffer()).byteLength;

    const blob = randomBytes(BLOB_BYTES);
    let start = performance.now();
    await app.storage.put('packages', 'bench-blob.zip', blob);
    const writeMBps = Math.round(BLOB_BYTES / 1024 / 1024 / ((performance.now() - start) / 1000));
    start = performance.now();
    const read = await readAll((await app.storage.get('packages', 'bench-blob.zip'))!);
    const readMBps = Math.round(read.length / 1024 / 1024 / ((performance.now() - start) / 1000));

    const xml = readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xml`), 'utf8');
    const rows = [
      await load(`${storageUrl} POST validate/xml/, c=4`, {
        url: `${service.url}/api/v1/validate/xml/`,
        method: 'POST',
        headers: { 'x-api-key': plaintext, 'content-type': 'application/json' },
        body: JSON.stringify({ xml_content: xml }),
        connections: 4,
        durationSeconds,
      }),
      await load(`${storageUrl} GET catalog package ZIP (${zipBytes} B), c=4`, { url: packageUrl, connections: 4, durationSeconds }),
    ];
    return { storageUrl, rows, blob: { bytes: BLOB_BYTES, writeMBps, readMBps } };
  } finally {
    await service.close();
  }
}

export async function benchStorage(durationSeconds = 5): Promise<Record<string, unknown>> {
  const results = [];
  for (const url of ['file:', 'postgres:'] as const) results.push(await measureBackend(url, durationSeconds));
  printTable(results.flatMap((r) => r.rows));
  printTable(results.map((r) => ({ backend: r.storageUrl, ...r.blob })));
  return Object.fromEntries(results.map((r) => [r.storageUrl.replace(':', ''), { loads: r.rows, blob16MiB: r.blob }]));
}

if (require.main === module) {
  benchStorage(Number(process.argv[2] ?? 5))
    .then((result) => recordResults('storage', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
