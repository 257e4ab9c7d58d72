import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { issueKey, signedIn } from '../support/factories';
import { form, SP_CT_ID, startAppUnderTest, type AppUnderTest } from './app-helpers';

/** An upload the node cannot stage (issue 30, point 8): the staging folder STORAGE_DIR/.incoming cannot be made
 * or written, which is the storage's fault, not the client's: 503 STORAGE_UNAVAILABLE in Interface B's general
 * format and 503 storage_unavailable in Interface A's, never a 500; once repaired, uploads work again. */

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest({}, { workers: false });
}, 120_000);
afterAll(() => app.close());

const staging = () => path.join(app.storageDir, '.incoming');
/** A file where the staging folder should be: mkdir fails, whoever runs the test (root included). */
async function breakStaging(): Promise<void> {
  await rm(staging(), { recursive: true, force: true });
  await writeFile(staging(), 'not a directory');
}
async function repairStaging(): Promise<void> {
  await rm(staging(), { force: true });
  await mkdir(staging(), { recursive: true });
}

const turtle = '<urn:s> <urn:p> "v" .';

it('answers 503 in each contract when the staging folder is unusable, and works once it is repaired', async () => {
  const { client } = await signedIn(app.url, app.services, { credits: 10_000 });
  const studio = client.withToken((await issueKey(client)).key);
  await breakStaging();
  try {
    const appUpload = await app.call('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: turtle }]) });
    expect(appUpload.status).toBe(503);
    expect(appUpload.body).toMatchObject({ success: false, error_code: 'STORAGE_UNAVAILABLE' });

    const csv = form([{ field: 'file', name: 'rows.csv', content: 'a,b\n1,2\n', type: 'text/csv' }]);
    const studioUpload = await studio.request('POST', '/api/v1/uploader/api/data-sources/', csv);
    expect(studioUpload.status).toBe(503);
    expect(studioUpload.body.error_type).toBe('storage_unavailable');
  } finally {
    await repairStaging();
  }
  const again = await app.call('POST', '/api/v1/upload/rdf/', { body: form([{ field: 'file', name: `dm-${SP_CT_ID}.ttl`, content: turtle }]) });
  expect(again.status).not.toBe(503);
  expect(again.status).toBeLessThan(500);
});
