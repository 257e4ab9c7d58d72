import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AR_CT_ID, ARREST_REPORT, form, SP_CT_ID, startAppUnderTest, STATE_POPULATION, type AppUnderTest } from './app-helpers';

/** Under load, one caller's validations reach a pool thread several to a task (src/validation/thread-batches.ts):
 * each request still gets the answer it gets alone, whatever the others in its batch answer. */

const SP_XML = readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`), 'utf8');
const AR_XML = readFileSync(path.join(ARREST_REPORT, `dm-${AR_CT_ID}.xml`), 'utf8');
const INPUTS = [
  SP_XML,
  SP_XML.replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>'),
  SP_XML.replace('</dm-label>', '</dm-lab>'),
  AR_XML,
  SP_XML.replaceAll(`dm-${SP_CT_ID}`, 'dm-nosuchmodel0000000000000'),
  `<?xml version="1.0"?><other xmlns="urn:x"/>`,
];

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest({}, { workers: false });
  const uploaded = await app.call('POST', '/api/v1/upload/schema/', {
    body: form([
      { field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: readFileSync(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`)) },
      { field: 'files', name: `dm-${AR_CT_ID}.xsd`, content: readFileSync(path.join(ARREST_REPORT, `dm-${AR_CT_ID}.xsd`)) },
    ]),
  });
  expect(uploaded.body.data.stored_files).toHaveLength(2);
});
afterAll(() => app?.close());

const validate = (xml: string) =>
  app.call('POST', '/api/v1/validate/xml/', {
    body: JSON.stringify({ xml_content: xml, sync_triplestore: false }),
    headers: { 'content-type': 'application/json' },
  });

/** What an answer says, without what differs from one request to the next (the generated instance id). */
const gist = (answer: { status: number; body: any }) => ({
  status: answer.status,
  code: answer.body.error?.code ?? null,
  validationStatus: answer.body.data?.validation_status ?? null,
  corrected: answer.body.data?.auto_corrected_fields ?? null,
});

it('answers each of a burst of mixed validations from one key as it answers it alone', async () => {
  const alone: Array<ReturnType<typeof gist>> = [];
  for (const xml of INPUTS) alone.push(gist(await validate(xml)));
  expect(alone.map((a) => a.status)).toEqual([201, 201, 400, 422, 404, 400]);
  // 30: within the per-caller limit of requests in progress (MAX_CONCURRENT_REQUESTS_PER_CALLER, 32).
  const burst = Array.from({ length: 30 }, (_, i) => INPUTS[i % INPUTS.length]);
  const tasksBefore = app.services.cpu.stats!.completed;
  const answers = await Promise.all(burst.map(validate));
  // Fewer pool tasks than validations: they went to the threads several at a time.
  expect(app.services.cpu.stats!.completed - tasksBefore).toBeLessThan(burst.length);
  expect(answers.map(gist)).toEqual(burst.map((_, i) => alone[i % INPUTS.length]));
  // Every stored instance is one of the burst's valid ones, each under its own id.
  const ids = answers.filter((a) => a.status === 201).map((a) => a.body.data.instance_id);
  expect(new Set(ids).size).toBe(10);
  const [{ n }] = await app.services.db.query('SELECT count(*)::int AS n FROM app_instances WHERE instance_id = ANY($1)', [ids]);
  expect(n).toBe(10);
});
