import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspectZip, ZIP_LIMITS } from '../../src/storage/zip-inspector';
import { form, makeZip, startAppUnderTest, storedNames, type AppUnderTest } from './app-helpers';

/** The ZIP inflation budget (issue 30, point 8): checking an upload inflates every entry once, so what one
 * upload may inflate in total (ZIP_MAX_INFLATED_BYTES) and how long that may take (ZIP_MAX_INFLATE_MS) are
 * bounded; entries of exactly 1 MiB (under the per-entry ratio check's floor) add up like any other. */

const MIB = 1024 * 1024;
let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest({ zipMaxInflatedBytes: 8 * MIB }, { workers: false });
}, 120_000);
afterAll(() => app.close());

const zeros = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `part-${i}.bin`, content: Buffer.alloc(MIB) }));

it('refuses an upload that inflates past ZIP_MAX_INFLATED_BYTES and accepts one below it', async () => {
  const bomb = await makeZip(zeros(16));
  expect(bomb.length).toBeLessThan(MIB / 4);
  const refused = await app.call('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name: 'many.zip', content: bomb }]) });
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('INVALID_ZIP');
  expect(refused.text).toContain('ZIP_MAX_INFLATED_BYTES');
  expect(await storedNames(app.storageDir, 'zip')).toEqual([]);

  const fine = await app.call('POST', '/api/v1/upload/zip/', { body: form([{ field: 'file', name: 'few.zip', content: await makeZip(zeros(4)) }]) });
  expect(fine.status).toBe(201);
});

it('stops checking an archive past ZIP_MAX_INFLATE_MS', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'zip-inflate-'));
  try {
    const file = path.join(dir, 'slow.zip');
    await writeFile(file, await makeZip(zeros(64)));
    // Generous bytes, the least time: inflating 64 MiB takes longer than 1 ms on any machine.
    const error = await inspectZip(file, { ...ZIP_LIMITS, maxMs: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_ZIP' });
    expect(String((error as Error).message)).toContain('ZIP_MAX_INFLATE_MS');
    // The same archive within the default budget passes.
    expect(await inspectZip(file)).toEqual({ entries: 64, uncompressedBytes: 64 * MIB });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
