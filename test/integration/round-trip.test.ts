import path from 'node:path';
import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { zipEntries } from '../support/zip';

const REFERENCE = path.resolve(__dirname, '../../../shared/fixtures/sdc4/reference');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ schemaCatalogDir: REFERENCE });
});
afterAll(() => app.close());

/** Issue 5's loop: assemble through Interface A → generate → upload the XSD to Interface B → validate the
 * package's example instance against it and the real sdc4.xsd → valid. */
describe('studio to application round trip', () => {
  jest.setTimeout(120000);

  it('validates the generated example instance of an assembled model', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 10000 });
    const key = await issueKey(client, { scopes: ['build', 'spend'] });
    const studio = client.withToken(key.key);
    const assembled = await studio.post('/api/v1/dmgen/assemble/', {
      title: 'Blood Pressure',
      description: 'A reading.',
      data: {
        label: 'Blood Pressure Data',
        components: [
          { label: 'Systolic', data_type: 'XdCount', units: 'mm[Hg]' },
          { label: 'Diastolic', data_type: 'XdCount', units: 'mm[Hg]' },
          { label: 'Position', data_type: 'XdString' },
        ],
        clusters: [
          {
            label: 'Context',
            components: [
              { label: 'Measured at', data_type: 'XdTemporal' },
              { label: 'Cuff size', data_type: 'XdQuantity', units: 'cm' },
            ],
          },
        ],
      },
    });
    expect(assembled.status).toBe(202);
    let job;
    for (let i = 0; i < 120; i++) {
      job = (await studio.get(`/api/v1/jobs/${assembled.body.job_ct_id}/`)).body;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(job.status).toBe('completed');
    const pkg = await fetch(job.result.package_url, { headers: { authorization: `Token ${key.key}` } });
    expect(pkg.status).toBe(200);
    const files = await zipEntries(Buffer.from(await pkg.arrayBuffer()));
    const dm = `dm-${job.dm_ct_id}`;
    const xsd = files.get(`${dm}.xsd`)!;
    const xml = files.get(`${dm}.xml`)!.toString('utf8');
    expect(xsd).toBeDefined();

    const { plaintext } = await app.services.app.keys.create({ organization: 'Clinic', contactEmail: 'it@clinic.example' });
    const upload = new FormData();
    upload.append('files', new Blob([new Uint8Array(xsd)]), `${dm}.xsd`);
    const stored = await fetch(`${app.url}/api/v1/upload/schema/`, { method: 'POST', headers: { 'x-api-key': plaintext }, body: upload });
    expect(stored.status).toBe(201);
    expect((await stored.json()).data.errors).toEqual([]);

    const validated = await fetch(`${app.url}/api/v1/validate/xml/`, {
      method: 'POST',
      headers: { 'x-api-key': plaintext, 'content-type': 'application/json' },
      body: JSON.stringify({ xml_content: xml, sync_triplestore: false }),
    });
    const body = await validated.json();
    expect(validated.status).toBe(201);
    expect(body.data).toMatchObject({ dm_ct_id: job.dm_ct_id, validation_status: 'valid', validation_errors: null, auto_corrected_fields: [] });
    expect(body.data.instance_id).toMatch(/^i-[a-z0-9]+$/);
  });
});
