import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../support/app';
import { renderSignature } from '../../src/presenters/signing.presenter';
import { ROOT, runCli } from '../support/process';
import { statePopulationXml } from '../unit/xml/fixtures';

const META = { schemaCtId: 'its7j6bvrb9n2fxdcxmoemod', evCount: 0, issuer: 'SDCStudio test' };

let app: TestApp;
let workDir: string;
let recipe: string;
beforeAll(async () => {
  app = await startTestApp({}, { workers: false });
  workDir = await mkdtemp(path.join(tmpdir(), 'signing-'));
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- signing-recipe:start -->\n```sh\n([\s\S]*?)```\n<!-- signing-recipe:end -->/.exec(readme);
  recipe = path.join(workDir, 'verify-sdc-signature.sh');
  await writeFile(recipe, block![1]);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await rm(workDir, { recursive: true, force: true });
});

let files = 0;
async function signedFile(xml: string): Promise<string> {
  const file = path.join(workDir, `instance-${++files}.xml`);
  await writeFile(file, xml);
  return file;
}

const keySetUrl = () => `${app.url}/.well-known/sdcstudio-signing-keys.json`;
const cliVerify = (file: string) => runCli(['vaas', 'verify', file, '--keys', keySetUrl(), '--no-schema-check'], {});

/** The README's standard-tool recipe (xsltproc, xmllint, openssl, curl): its exit code and last line. */
async function recipeVerify(file: string): Promise<{ code: number; line: string }> {
  try {
    const { stdout } = await promisify(execFile)('bash', [recipe, file], { env: { ...process.env, STUDIO: app.url } });
    return { code: 0, line: stdout.trim() };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, line: `${failed.stdout}${failed.stderr}`.trim().split('\n').pop()! };
  }
}

const publicGet = (p: string) => fetch(app.url + p);

describe('the public signing keys', () => {
  it('answer without credentials: a JWK set with the current key, the same key alone, and as PEM', async () => {
    const set = await publicGet('/.well-known/sdcstudio-signing-keys.json');
    const current = await publicGet('/.well-known/sdc-signing-key');
    const body = await set.json();

    expect(set.status).toBe(200);
    expect(body).toEqual({
      issuer: new URL(app.url).host,
      keys: [
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: expect.any(String),
          kid: expect.any(String),
          use: 'sig',
          alg: 'EdDSA',
          created_at: expect.any(String),
          retired_at: null,
        },
        // The settlement issuer's P-256 key (vsl.md §3): sdcreceipt's fields and an EC JWK, skipped by `vaas verify`.
        expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: 'sdcstudio-signing-key-v1', public_key_pem: expect.any(String) }),
      ],
    });
    expect(current.status).toBe(200);
    expect(await current.json()).toEqual(body.keys[0]);
    const pem = await publicGet(`/.well-known/sdc-signing-key?format=pem&kid=${body.keys[0].kid}`);
    expect(pem.headers.get('content-type')).toBe('application/x-pem-file; charset=utf-8');
    expect(await pem.text()).toMatch(/^-----BEGIN PUBLIC KEY-----\n.+\n-----END PUBLIC KEY-----\n$/);
  });

  it('answer 404 for a key nobody published and 400 for an unknown format', async () => {
    const missing = await publicGet('/.well-known/sdc-signing-key?kid=nope');
    const format = await publicGet('/.well-known/sdc-signing-key?format=der');

    expect([missing.status, await missing.json()]).toEqual([404, { error: 'Signing key not found.', error_type: 'not_found' }]);
    expect([format.status, await format.json()]).toEqual([
      400,
      { error: 'Unknown format: use "jwk" or "pem".', error_type: 'invalid_request', format: 'der' },
    ]);
  });
});

describe('a signed StatePopulation instance', () => {
  let signedXml: string;
  let kid: string;
  beforeAll(async () => {
    const signed = await app.services.signing.sign(statePopulationXml(), META);
    signedXml = signed.signedXml;
    kid = signed.signature.keyId;
    expect(renderSignature(signed.signature)).toEqual({
      algorithm: 'Ed25519',
      issuer: META.issuer,
      timestamp: expect.any(String),
      schema_ct_id: META.schemaCtId,
      ev_count: 0,
      key_id: (await app.services.signing.currentKey()).kid,
    });
  });

  it('verifies with the CLI and with the standard-tool recipe', async () => {
    const file = await signedFile(signedXml);
    const cli = await cliVerify(file);

    expect([cli.code, cli.json]).toEqual([
      0,
      { valid: true, key_id: kid, signed: { issuer: META.issuer, timestamp: expect.any(String), schema_ct_id: META.schemaCtId, ev_count: 0 } },
    ]);
    expect(await recipeVerify(file)).toEqual({ code: 0, line: 'Signature Verified Successfully' });
  });

  type Edit = (xml: string) => [string, string];
  /** The eighth character of the signature value, swapped. */
  const signatureEdit: Edit = (xml) => {
    const head = /<ds:SignatureValue>(.{8})/.exec(xml)![0];
    return [head, `${head.slice(0, -1)}${head.endsWith('A') ? 'B' : 'A'}`];
  };

  it.each<[string, Edit, string]>([
    ['a value', () => ['<xdcount-value>86</xdcount-value>', '<xdcount-value>87</xdcount-value>'], 'the signed content was changed (digest mismatch)'],
    [
      'an attribute',
      () => ['sdc4/ https://semanticdatacharter.com/dmlib/', 'sdc5/ https://semanticdatacharter.com/dmlib/'],
      'the signed content was changed (digest mismatch)',
    ],
    ['the signature', signatureEdit, 'the signature value does not match'],
  ])('fails both when one character of %s changes', async (_what, edit, reason) => {
    const [from, to] = edit(signedXml);
    expect(signedXml.split(from)).toHaveLength(2);
    const file = await signedFile(signedXml.replace(from, to));
    const cli = await cliVerify(file);

    expect([cli.code, cli.json]).toEqual([1, { valid: false, key_id: kid, reason }]);
    expect((await recipeVerify(file)).code).not.toBe(0);
  });

  it('still verifies after a key rotation, while new instances use the new key', async () => {
    const rotated = await runCli(['signing', 'rotate'], { DATABASE_URL: app.databaseUrl });
    expect(rotated.code).toBe(0);
    expect(rotated.json).toMatchObject({ current: { kid: expect.any(String), retired_at: null }, retired: { kid, retired_at: expect.any(String) } });
    const newKid = rotated.json.current.kid;
    expect(newKid).not.toBe(kid);

    const oldFile = await signedFile(signedXml);
    expect((await cliVerify(oldFile)).code).toBe(0);
    expect(await recipeVerify(oldFile)).toEqual({ code: 0, line: 'Signature Verified Successfully' });

    const fresh = await app.services.signing.sign(statePopulationXml(), META);
    expect(fresh.signature.keyId).toBe(newKid);
    const newFile = await signedFile(fresh.signedXml);
    expect((await cliVerify(newFile)).json).toMatchObject({ valid: true, key_id: newKid });
    expect(await recipeVerify(newFile)).toEqual({ code: 0, line: 'Signature Verified Successfully' });
    const set = await (await publicGet('/.well-known/sdcstudio-signing-keys.json')).json();
    // The Ed25519 keys (newest first), then the settlement issuer's P-256 key, untouched by this rotation.
    expect(set.keys.map((k: { kid: string }) => k.kid)).toEqual([newKid, kid, 'sdcstudio-signing-key-v1']);
  });
});
