import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readPackageFiles } from '../../src/packages/package-reader';
import { VAAS_MODEL_TTL_MS } from '../../src/services/vaas-schemas';
import { validateWithCorrection } from '../../src/xml/ev';
import { compileSchema, type CompiledSchema } from '../../src/xml/schema';
import { startTestApp, type TestApp } from '../support/app';
import { issueKey, signedIn } from '../support/factories';
import { ROOT, runCli } from '../support/process';
import {
  FIXTURES,
  offlineResolver,
  SDC4_REFERENCE_DIR,
  STATE_POPULATION_CT_ID as DM,
  statePopulationXml,
  statePopulationXsd,
} from '../unit/xml/fixtures';

const STATE_POPULATION = path.join(FIXTURES, 'sdc4/packages/StatePopulation');

/** N/A in the adult count (line 25) and `---` in the percentage (line 45). */
const placeholdersXml = () =>
  statePopulationXml()
    .replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>')
    .replace('<xdquantity-value>0.0</xdquantity-value>', '<xdquantity-value>---</xdquantity-value>');

/** The State component loses its label (line 18) and the total count is not a number (line 35). */
const brokenXml = () =>
  statePopulationXml()
    .replace('      <label>State</label>\n', '\n')
    .replace('<xdcount-value>86</xdcount-value>', '<xdcount-value>many</xdcount-value>');

let app: TestApp;
let token: string;
let userId: number;
let workDir: string;
let recipe: string;
let realSchema: CompiledSchema;

beforeAll(async () => {
  app = await startTestApp({ schemaCatalogDir: SDC4_REFERENCE_DIR }, { workers: false });
  await app.services.packages.importPackage(STATE_POPULATION);
  const { client, user } = await signedIn(app.url, app.services, { credits: 10_000 });
  token = (await issueKey(client)).key;
  userId = user.id;
  workDir = await mkdtemp(path.join(tmpdir(), 'vaas-'));
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- signing-recipe:start -->\n```sh\n([\s\S]*?)```\n<!-- signing-recipe:end -->/.exec(readme);
  recipe = path.join(workDir, 'verify-sdc-signature.sh');
  await writeFile(recipe, block![1]);
  realSchema = await compileSchema(statePopulationXsd(), offlineResolver());
}, 180_000);
afterAll(async () => {
  await app?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** What the toolkit's httpx client sends: the query, raw XML as application/xml, Authorization: Token. */
async function post(pathAndQuery: string, xml: string, headers: Record<string, string> = {}, key = token) {
  const res = await fetch(app.url + pathAndQuery, {
    method: 'POST',
    headers: { authorization: `Token ${key}`, 'content-type': 'application/xml', ...headers },
    body: xml,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const validateInstance = (xml: string, mode = 'recover', pkg = false) => post(`/api/v1/vaas/validate/?mode=${mode}&package=${pkg}`, xml);
const signInstance = (xml: string, recover = true, pkg = false) => post(`/api/v1/vaas/validate/sign/?recover=${recover}&package=${pkg}`, xml);

const balance = async (id = userId) => (await app.services.ledger.wallet(id, app.services.db.manager)).balanceCredits;
const charges = async (id = userId) =>
  Number((await app.services.db.query("SELECT count(*) AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'charge'", [id]))[0].n);

let files = 0;
async function fileOf(xml: string): Promise<string> {
  const file = path.join(workDir, `instance-${++files}.xml`);
  await writeFile(file, xml);
  return file;
}
const cliVerify = (file: string) =>
  runCli(['vaas', 'verify', file, '--keys', `${app.url}/.well-known/sdcstudio-signing-keys.json`, '--json'], {
    SCHEMA_CATALOG_DIR: SDC4_REFERENCE_DIR,
  });
async function recipeVerify(file: string): Promise<number> {
  try {
    await promisify(execFile)('bash', [recipe, file], { env: { ...process.env, STUDIO: app.url } });
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
}

describe("the toolkit's validate_instance, replayed", () => {
  it('accepts the valid StatePopulation instance and charges one validation in dollars', async () => {
    const before = await balance();
    const res = await validateInstance(statePopulationXml());

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      mode: 'recover',
      schema: { ct_id: DM, title: expect.any(String) },
      structural_errors: 0,
      semantic_errors: 0,
      recovered: false,
      errors: [],
      corrections: [],
      charged_credits: 1,
    });
    expect(res.headers.get('x-sdc-estimated-cost')).toBe('0.001');
    expect(res.headers.get('x-sdc-balance-remaining-credits')).toBe(String(before - 1));
    expect(await balance()).toBe(before - 1);
  });

  it('recovers N/A and --- placeholders with EV elements; the recovered XML validates against the real sdc4.xsd', async () => {
    const res = await validateInstance(placeholdersXml());

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, mode: 'recover', recovered: true, structural_errors: 0 });
    expect(res.body.corrections).toEqual([
      { line: 25, ev: 'EV_NULL', element: 'sdc4:NI', original: 'N/A' },
      { line: 45, ev: 'EV_NULL', element: 'sdc4:NI', original: '---' },
    ]);
    const recovered: string = res.body.recovered_xml;
    expect(recovered.match(/<sdc4:NI><ev-name>No Information<\/ev-name><\/sdc4:NI>/g)).toHaveLength(2);
    // The required values stay beside their EV (SDC4's quarantine-and-tag): reported as EV-level, semantic.
    expect(res.body.semantic_errors).toBe(2);
    expect(res.body.errors.map((e: { line: number }) => e.line)).toEqual([25, 45]);
    const again = validateWithCorrection(recovered, realSchema);
    expect([again.status, again.corrections]).toEqual(['valid_with_ev', []]);
    const strict = await validateInstance(recovered, 'strict');
    expect(strict.body).toMatchObject({ valid: true, recovered: false, structural_errors: 0, semantic_errors: 2 });
  });

  it('refuses a structurally broken instance with located errors, still charging its validation', async () => {
    const before = await balance();
    const res = await validateInstance(brokenXml(), 'strict');

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, mode: 'strict', recovered: false, structural_errors: 2, semantic_errors: 0 });
    expect(res.body.errors).toEqual([
      { line: 19, message: expect.stringContaining("'xdstring-value'") },
      { line: 35, message: "Element 'xdcount-value': 'many' is not a valid value of the local atomic type." },
    ]);
    expect(res.body.recovered_xml).toBeUndefined();
    expect(await balance()).toBe(before - 1);
  });

  it('reports placeholders as structural errors in strict mode (report is its synonym)', async () => {
    const res = await validateInstance(placeholdersXml(), 'report');

    expect(res.body).toMatchObject({ valid: false, mode: 'strict', recovered: false, structural_errors: 2 });
    expect(res.body.errors.map((e: { line: number }) => e.line)).toEqual([25, 45]);
  });

  it('offers a ZIP at X-Package-Url to the same token, whose manifest hashes match its files', async () => {
    const res = await validateInstance(placeholdersXml(), 'recover', true);
    const url = res.headers.get('x-package-url')!;
    expect(url).toMatch(new RegExp(`^${app.url}/api/v1/vaas/packages/[a-z0-9]+/$`));

    const zip = await fetch(url, { headers: { authorization: `Token ${token}` } });
    expect([zip.status, zip.headers.get('content-type')]).toEqual([200, 'application/zip']);
    const zipFile = path.join(workDir, 'package.zip');
    await writeFile(zipFile, Buffer.from(await zip.arrayBuffer()));
    const entries = new Map((await readPackageFiles(zipFile, true)).map((f) => [f.name, f.content as Buffer]));
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));

    expect(manifest.ct_id).toBe(DM);
    expect(manifest.title).toBe(res.body.schema.title);
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual([
      `dm-${DM}.xml`,
      `dm-${DM}.xsd`,
      `dm-${DM}-instance.json`,
      `dm-${DM}-instance.nt`,
    ]);
    for (const file of manifest.files) {
      const content = entries.get(file.name)!;
      expect([file.name, createHash('sha256').update(content).digest('hex'), content.length]).toEqual([file.name, file.sha256, file.size]);
    }
    expect(entries.get(`dm-${DM}.xml`)!.toString('utf8')).toBe(res.body.recovered_xml);
    expect(entries.get(`dm-${DM}-instance.nt`)!.toString('utf8')).toContain('https://semanticdatacharter.com/ns/sdc4/NIType');
    expect(JSON.parse(entries.get(`dm-${DM}-instance.json`)!.toString('utf8'))).toMatchObject({ metadata: { dm_label: 'StatePopulation' } });

    const anonymous = await fetch(url);
    const { client } = await signedIn(app.url, app.services);
    const stranger = await fetch(url, { headers: { authorization: `Token ${(await issueKey(client)).key}` } });
    expect([anonymous.status, stranger.status]).toEqual([401, 404]);
    app.clock.advance(app.services.settings.vaas.packageTtlSeconds * 1000 + 1000);
    try {
      expect((await fetch(url, { headers: { authorization: `Token ${token}` } })).status).toBe(404);
    } finally {
      app.clock.advance(-(app.services.settings.vaas.packageTtlSeconds * 1000 + 1000));
    }
  });

  it.each<[string, () => Promise<{ status: number; body: { error_type: string } }>, number, string]>([
    ['malformed XML', () => validateInstance('<sdc4:dm-x xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"><unclosed>'), 400, 'invalid_xml'],
    ['a root that names no model', () => validateInstance('<report/>'), 400, 'invalid_xml'],
    ['an unknown model', () => validateInstance(statePopulationXml().replaceAll(DM, 'nosuchmodel00000000000000')), 404, 'not_found'],
    ['an oversize body', () => validateInstance(`<a>${'x'.repeat(app.services.settings.cpu.thread.xml.maxBytes)}</a>`), 413, 'payload_too_large'],
    ['JSON', () => post('/api/v1/vaas/validate/', statePopulationXml(), { 'content-type': 'application/json' }), 415, 'unsupported_media_type'],
    ['an unknown mode', () => validateInstance(statePopulationXml(), 'lenient'), 400, 'invalid_request'],
  ])('refuses %s without charging', async (_what, send, status, code) => {
    const [before, count] = [await balance(), await charges()];
    const res = await send();

    expect([res.status, res.body.error_type]).toEqual([status, code]);
    expect([await balance(), await charges()]).toEqual([before, count]);
  });
});

describe('the model an instance names', () => {
  it("validates against the caller's own draft; anyone else gets 404", async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const ownerToken = (await issueKey(client)).key;
    const assembled = await client.post('/api/v1/dmgen/assemble/', {
      title: 'VaaS draft',
      publish: false,
      generate: false,
      data: { label: 'VaaS draft data', components: [{ ct_id: 'poq4ywx89zvijxwoqz8djrxj' }] },
    });
    expect(assembled.status).toBe(200);
    const draft: string = assembled.body.ct_id;
    const skeleton = await client.get(`/api/v1/catalog/dm/${draft}/skeleton/`);
    expect(skeleton.status).toBe(200);

    const own = await post('/api/v1/vaas/validate/?mode=strict&package=false', skeleton.text, {}, ownerToken);
    const others = await validateInstance(skeleton.text, 'strict');

    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ schema: { ct_id: draft, title: 'VaaS draft' }, mode: 'strict' });
    expect([others.status, others.body.error_type]).toEqual([404, 'not_found']);
  });

  it('a public model made private is 404 once VAAS_MODEL_TTL_MS has passed (the limit of the per-caller model cache)', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 100 });
    const token = (await issueKey(client)).key;
    const validate = () => post('/api/v1/vaas/validate/?mode=strict&package=false', statePopulationXml(), {}, token);
    expect((await validate()).status).toBe(200);
    const project = 'SELECT project_id FROM data_models WHERE ct_id = $1';
    await app.services.db.query(`UPDATE projects SET is_public = false WHERE id = (${project})`, [DM]);
    try {
      await new Promise((resolve) => setTimeout(resolve, VAAS_MODEL_TTL_MS + 50));
      const hidden = await validate();
      expect([hidden.status, hidden.body.error_type]).toEqual([404, 'not_found']);
    } finally {
      await app.services.db.query(`UPDATE projects SET is_public = true WHERE id = (${project})`, [DM]);
    }
    // A refusal is never kept: public again, it is found at once.
    expect((await validate()).status).toBe(200);
  });
});

describe("the toolkit's sign_instance, replayed", () => {
  it('signs a recovered instance that verifies with the CLI (signature and schema) and the standard-tool recipe', async () => {
    const before = await balance();
    const res = await signInstance(placeholdersXml());

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      valid: true,
      signed: true,
      recovered: true,
      signature: { algorithm: 'Ed25519', issuer: new URL(app.url).host, schema_ct_id: DM, ev_count: 2, key_id: expect.any(String) },
      verification: {
        public_key_url: `${app.url}/.well-known/sdc-signing-key?kid=${res.body.signature.key_id}`,
        verify_command: expect.stringContaining('vaas verify'),
      },
    });
    expect(res.headers.get('x-sdc-estimated-cost')).toBe('0.006');
    expect(await balance()).toBe(before - 6);
    const file = await fileOf(res.body.signed_xml);
    const cli = await cliVerify(file);
    expect([cli.code, cli.json]).toEqual([0, expect.objectContaining({ valid: true, schema: { schema_ct_id: DM, valid: true, errors: [] } })]);
    expect(await recipeVerify(file)).toBe(0);

    const changed = await fileOf(res.body.signed_xml.replace('<xdcount-value>86</xdcount-value>', '<xdcount-value>87</xdcount-value>'));
    expect((await cliVerify(changed)).code).toBe(1);
    expect(await recipeVerify(changed)).not.toBe(0);
  });

  it('packages the signed instance when asked', async () => {
    const res = await signInstance(statePopulationXml(), true, true);
    const zip = await fetch(res.headers.get('x-package-url')!, { headers: { authorization: `Token ${token}` } });
    const zipFile = path.join(workDir, 'signed-package.zip');
    await writeFile(zipFile, Buffer.from(await zip.arrayBuffer()));
    const entries = new Map((await readPackageFiles(zipFile, true)).map((f) => [f.name, (f.content as Buffer).toString('utf8')]));

    expect(res.body).toMatchObject({ signed: true, package_url: res.headers.get('x-package-url') });
    expect(entries.get(`dm-${DM}.xml`)).toBe(res.body.signed_xml);
  });

  it('does not sign an invalid instance and charges only its validation', async () => {
    const before = await balance();
    const res = await signInstance(brokenXml(), false);

    expect(res.body).toMatchObject({ valid: false, signed: false, signed_xml: null, signature: null, structural_errors: 2 });
    expect(res.headers.get('x-sdc-estimated-cost')).toBe('0.001');
    expect(await balance()).toBe(before - 1);
  });

  it('the CLI refuses a correctly signed instance that its schema does not accept', async () => {
    const signed = await app.services.signing.sign(brokenXml(), { schemaCtId: DM, evCount: 0, issuer: 'test' });
    const cli = await cliVerify(await fileOf(signed.signedXml));

    expect(cli.code).toBe(1);
    expect(cli.json).toMatchObject({ valid: false, key_id: signed.signature.keyId, schema: { valid: false } });
  });

  it('after a rotation, an older signature still verifies and new ones use the new key', async () => {
    const old = await signInstance(statePopulationXml());
    const rotated = await app.services.signing.rotate();
    const fresh = await signInstance(statePopulationXml());

    expect(fresh.body.signature.key_id).toBe(rotated.current.kid);
    expect(old.body.signature.key_id).toBe(rotated.retired!.kid);
    for (const xml of [old.body.signed_xml, fresh.body.signed_xml]) {
      const file = await fileOf(xml);
      expect((await cliVerify(file)).code).toBe(0);
      expect(await recipeVerify(file)).toBe(0);
    }
  });
});

describe('a batch against a small wallet', () => {
  it('stops at the first 402 with 60 charged, and resuming with the same Idempotency-Keys charges the rest once', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 60 });
    const key = (await issueKey(client)).key;
    const send = (i: number) =>
      post('/api/v1/vaas/validate/?mode=recover&package=false', statePopulationXml(), { 'idempotency-key': `batch-${i}` }, key);

    let stoppedAt = -1;
    for (let i = 0; i < 100; i++) {
      const res = await send(i);
      if (res.status === 402) {
        expect(res.body).toMatchObject({ error_type: 'insufficient_funds', estimated_cost: '0.001', balance: '0.000' });
        expect(res.headers.get('x-sdc-estimated-cost')).toBe('0.001');
        stoppedAt = i;
        break;
      }
      expect(res.status).toBe(200);
    }
    expect([stoppedAt, await balance(user.id), await charges(user.id)]).toEqual([60, 0, 60]);

    await app.services.ledger.credit(user.id, 100, 'top up');
    const replayed: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await send(i);
      expect(res.status).toBe(200);
      if (res.headers.get('idempotent-replayed') === 'true') replayed.push(`batch-${i}`);
    }
    expect(replayed).toHaveLength(60);
    expect([await balance(user.id), await charges(user.id)]).toEqual([60, 100]);
  }, 180_000);
});

describe('concurrent validations racing for the last credits', () => {
  it('charge exactly what the wallet holds and refuse the rest with 402, uncharged', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5 });
    const key = (await issueKey(client)).key;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/api/v1/vaas/validate/', statePopulationXml(), {}, key)));

    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 402, 402, 402, 402, 402]);
    expect([await balance(user.id), await charges(user.id)]).toEqual([0, 5]);
  }, 60_000);
});

describe('GraphQL', () => {
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return res.json();
  };

  it('validateInstance and signInstance answer as the REST calls do', async () => {
    const validated = await gql(
      'mutation ($xml: String!) { validateInstance(xml: $xml, mode: "recover") { valid mode recovered structuralErrors semanticErrors schema { ctId } corrections { line ev } chargedCredits } }',
      { xml: placeholdersXml() },
    );
    const signed = await gql(
      'mutation ($xml: String!) { signInstance(xml: $xml) { valid sign { signed signature { schemaCtId evCount } } chargedCredits } }',
      {
        xml: statePopulationXml(),
      },
    );

    expect(validated).toEqual({
      data: {
        validateInstance: {
          valid: true,
          mode: 'recover',
          recovered: true,
          structuralErrors: 0,
          semanticErrors: 2,
          schema: { ctId: DM },
          corrections: [
            { line: 25, ev: 'EV_NULL' },
            { line: 45, ev: 'EV_NULL' },
          ],
          chargedCredits: 1,
        },
      },
    });
    expect(signed).toEqual({
      data: { signInstance: { valid: true, sign: { signed: true, signature: { schemaCtId: DM, evCount: 0 } }, chargedCredits: 6 } },
    });
  });
});
