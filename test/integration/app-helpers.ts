import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Settings } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
export const STATE_POPULATION = path.join(FIXTURES, 'sdc4/packages/StatePopulation');
export const ARREST_REPORT = path.join(FIXTURES, 'sdc4/packages/Arrest-Report');
export const SP_CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
export const AR_CT_ID = 'o4elmdzifsi9e0nakyfdm8l1';
export const REFERENCE_DIR = path.join(FIXTURES, 'sdc4/reference');

export interface AppUnderTest extends TestApp {
  storageDir: string;
  /** An active Interface B key. */
  key: string;
  /** fetch against the app with the key (override headers to drop or change it). */
  call(
    method: string,
    route: string,
    init?: { body?: BodyInit; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; text: string; headers: Headers }>;
}

/** The real service on a fresh database and a fresh storage directory, with the SDC4 reference schemas as its
 * local schema catalog and one organisation key. */
export async function startAppUnderTest(overrides: Partial<Settings> = {}, options: { workers?: boolean } = {}): Promise<AppUnderTest> {
  const storageDir = await mkdtemp(path.join(tmpdir(), 'app-storage-'));
  const app = await startTestApp({ storageDir, schemaCatalogDir: REFERENCE_DIR, ...overrides }, options);
  const { plaintext } = await app.services.app.keys.create({ organization: 'Test Org', contactEmail: 'ops@example.org' });
  const call: AppUnderTest['call'] = async (method, route, init = {}) => {
    const response = await fetch(app.url + route, { method, body: init.body, headers: { 'x-api-key': plaintext, ...init.headers } });
    const text = await response.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body, text, headers: response.headers };
  };
  return {
    ...app,
    storageDir,
    key: plaintext,
    call,
    close: async () => {
      await app.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

export function form(
  files: Array<{ field: string; name: string; content: string | Uint8Array; type?: string }>,
  fields: Record<string, string> = {},
): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const file of files)
    data.append(file.field, new Blob([file.content as BlobPart], { type: file.type ?? 'application/octet-stream' }), file.name);
  return data;
}

/** A ZIP built with yazl (names as given: the hostile tests use names yazl would refuse, patched in afterwards). */
export async function makeZip(entries: Array<{ name: string; content: string | Buffer; compress?: boolean }>): Promise<Buffer> {
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  for (const entry of entries) zip.addBuffer(Buffer.from(entry.content), entry.name, { compress: entry.compress ?? true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Files left in a storage area (and in the staging directory, which must end empty). */
export async function storedNames(storageDir: string, area: 'zip' | 'dmlib' | '.incoming'): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(path.join(storageDir, area)).catch(() => [] as string[])).sort();
}
