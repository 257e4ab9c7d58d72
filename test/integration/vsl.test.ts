import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalJson, verifyReceipt } from '../../src/vsl';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { runCli } from '../support/process';
import { subscribe } from '../support/subscriptions';
import { zipEntries } from '../support/zip';
import { SDC4_REFERENCE_DIR } from '../unit/xml/fixtures';

/**
 * The settlement flow of sdcreceipt and HalvorsenDemo against the real service: a model whose workflow XdOrdinal
 * is bound to SCXML (built with the drafts API, as vsl.md §4.1 says), two parties with generated P-256 keys whose
 * key documents a loopback HTTPS server serves, settle → both triggers → the Receipt, checked by the offline
 * verifier; then each refusal for its own reason, and the money under 50 concurrent settles.
 */

const STATES = ['draft', 'review', 'approved', 'published'];
let app: TestApp;
let workdir: string;
let partyServer: Server;
let partyBase: string;
const documents = new Map<string, unknown>();

interface Party {
  keyId: string;
  privateKey: KeyObject;
}

function party(name: string, curve = 'P-256'): Party {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: curve });
  const keyId = `${partyBase}/parties/${name}.json`;
  documents.set(`/parties/${name}.json`, {
    issuer: keyId,
    keys: [
      {
        key_id: keyId,
        algorithm: 'EC_SIGN_P256_SHA256',
        alg: 'ES256',
        public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }),
        status: 'active',
      },
    ],
  });
  return { keyId, privateKey };
}

/** What `sdcreceipt.party.sign_trigger` returns: ES256 (P1363, base64url) over JCS({condition_hash, receipt_id}). */
async function signTrigger(
  p: Party,
  receipt: { receipt_id: string; settlement: { condition_hash: string } },
  encoding: 'ieee-p1363' | 'der' = 'ieee-p1363',
) {
  const message = await canonicalJson({ condition_hash: receipt.settlement.condition_hash, receipt_id: receipt.receipt_id });
  const signature = sign('sha256', Buffer.from(message), { key: p.privateKey, dsaEncoding: encoding }).toString('base64url');
  return { receipt_id: receipt.receipt_id, key_id: p.keyId, signature, timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

beforeAll(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), 'vsl-'));
  const key = path.join(workdir, 'key.pem');
  const cert = path.join(workdir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  partyServer = createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
    if (req.url === '/parties/huge.json')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"pad":"${'x'.repeat(100_000)}"}`);
    if (req.url === '/parties/moved.json') return void res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data' }).end();
    const doc = documents.get(req.url ?? '');
    res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(doc ?? { error: 'no such party' }));
  });
  await new Promise<void>((resolve) => partyServer.listen(0, '127.0.0.1', resolve));
  partyBase = `https://127.0.0.1:${(partyServer.address() as AddressInfo).port}`;
  app = await startTestApp({
    schemaCatalogDir: SDC4_REFERENCE_DIR,
    maxConcurrentRequestsPerCaller: 100,
    vsl: { receiptCredits: 1, partyKeyAllow: [`${partyBase}/`], partyKeyCaFile: cert, partyKeyTimeoutMs: 5000, partyKeyMaxBytes: 65_536 },
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => partyServer?.close(resolve));
  await rm(workdir, { recursive: true, force: true });
});

/** A published model whose one workflow XdOrdinal (draft → review → approved → published) is bound to SCXML, and
 * its generated instance. The project is made public so other callers can settle against it. */
async function workflowModel(): Promise<{ dmCtId: string; instance: string }> {
  const { client } = await signedIn(app.url, app.services, { credits: 10_000 });
  const tool = client.withToken((await issueKey(client)).key);
  const project = (await tool.get('/api/v1/auth/modeler/')).body.project_ct_id as string;
  const predicate = await tool.post('/api/v1/dmgen/predicates/', { ns_abbrev: 'rdfs', class_name: 'isDefinedBy' });
  const po = await tool.post('/api/v1/dmgen/pred-objs/', {
    predicate: predicate.body.id,
    object_uri: 'http://www.w3.org/2005/07/scxml',
    po_name: 'scxml',
    project,
  });
  expect(po.status).toBe(201);
  const ordinal = await tool.post('/api/v1/dmgen/xd-ordinals/', {
    project,
    label: 'Document state',
    description: 'Workflow',
    public: false,
    enums: STATES.join('\n'),
  });
  expect(ordinal.status).toBe(201);
  expect((await tool.patch(`/api/v1/dmgen/xd-ordinals/${ordinal.body.ct_id}/`, { pred_obj: [po.body.id] })).status).toBe(200);
  const cluster = await tool.post('/api/v1/dmgen/clusters/', { project, label: 'Document', public: false, xdordinal: [ordinal.body.ct_id] });
  expect(cluster.status).toBe(201);
  const dm = await tool.post('/api/v1/dmgen/dms/', {
    project,
    title: 'Governed document',
    data: cluster.body.id,
    description: 'A document with a workflow',
  });
  expect(dm.status).toBe(201);
  const dmCtId = dm.body.ct_id as string;
  expect((await tool.post(`/api/v1/dmgen/dms/${dmCtId}/publish/`)).status).toBe(200);
  expect((await tool.post(`/api/v1/dmgen/dms/${dmCtId}/generate/`)).status).toBe(200);
  await app.services.db.query('UPDATE projects SET is_public = true WHERE ct_id = $1', [project]);
  const zip = await fetch(`${app.url}/api/v1/catalog/dm/${dmCtId}/package/`, { headers: { authorization: tool.authorization! } });
  const entries = await zipEntries(Buffer.from(await zip.arrayBuffer()));
  return { dmCtId, instance: entries.get(`dm-${dmCtId}.xml`)!.toString('utf8') };
}

/** The generated instance at `state`: its `<current-state>` (authoritative for the issuer) sits right before the
 * data cluster, as DMType orders it. */
const CURRENT_STATE = /<current-state\s*\/>|<current-state>[^<]*<\/current-state>/;
const at = (instance: string, state: string) =>
  CURRENT_STATE.test(instance)
    ? instance.replace(CURRENT_STATE, `<current-state>${state}</current-state>`)
    : instance.replace(/(\s*)(<sdc4:ms-)/, `$1<current-state>${state}</current-state>$1$2`);

async function customer(credits: number) {
  const { client, user } = await signedIn(app.url, app.services, { credits });
  const key = (await issueKey(client)).key;
  return { client: client.withToken(key), userId: user.id, key };
}

const ledgerBalance = async (userId: number) =>
  Number(
    (
      await app.services.db.query(
        `SELECT coalesce(sum(amount_credits), 0) AS s FROM ledger_entries WHERE user_id = $1 AND kind IN ('credit', 'charge', 'refund')`,
        [userId],
      )
    )[0].s,
  );
const walletBalance = async (userId: number) =>
  Number((await app.services.db.query('SELECT balance_credits FROM wallets WHERE user_id = $1', [userId]))[0].balance_credits);
const keyDocument = async () => (await fetch(`${app.url}/.well-known/sdcstudio-signing-keys.json`)).json() as Promise<Record<string, unknown>>;

let model: { dmCtId: string; instance: string };
beforeAll(async () => {
  model = await workflowModel();
}, 180_000);

describe('a settlement between two parties', () => {
  let buyer: Party;
  let seller: Party;
  let client: HttpClient;
  let settled: Record<string, any>;
  const condition = { release: 'on delivery', amount: { value: 1250, currency: 'EUR' } };

  beforeAll(async () => {
    buyer = party('buyer');
    seller = party('seller');
    ({ client } = await customer(100));
    const res = await client.post('/api/v1/vsl/settle', {
      payload: at(model.instance, 'review'),
      target_state: 'approved',
      condition,
      parties: [buyer.keyId, seller.keyId],
    });
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    settled = res.body;
  });

  it('issues a signed PERMIT Receipt of format 1.0 that commits to hashes only, and charges one credit', () => {
    const receipt = settled.receipt;
    expect(settled.governance).toMatchObject({ decision: 'PERMIT', settleable: true });
    expect(settled.wallet).toEqual({ charged: '0.001', balance: '0.099', charged_credits: 1, balance_credits: 99 });
    expect(receipt).toMatchObject({
      version: '1.0',
      canonicalization: 'rfc8785',
      schema_ct_id: model.dmCtId,
      previous_hash: null,
      rm_version: 'SDC4',
    });
    expect(receipt.signatures).toEqual([{ key_id: 'sdcstudio-signing-key-v1', alg: 'ES256', sig: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/) }]);
    expect(receipt.settlement.triggers).toEqual([]);
    expect(JSON.stringify(settled)).not.toContain('on delivery');
  });

  it('takes both triggers, reports the settlement complete, and the offline verifier passes every check', async () => {
    const first = await fetch(`${app.url}/api/v1/vsl/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await signTrigger(buyer, settled.receipt)),
    });
    expect([first.status, await first.json()]).toEqual([
      200,
      expect.objectContaining({ accepted: true, status: 'awaiting_triggers', awaiting: [seller.keyId] }),
    ]);
    const second = await client.post('/api/v1/vsl/trigger', await signTrigger(seller, settled.receipt));
    expect([second.status, second.body.status]).toEqual([200, 'settled']);

    const got = await fetch(`${app.url}/api/v1/vsl/receipt/${settled.receipt.receipt_id}`);
    const body = await got.json();
    expect(body).toMatchObject({
      status: 'settled',
      decision: 'PERMIT',
      parties: [buyer.keyId, seller.keyId],
      triggered: [buyer.keyId, seller.keyId],
      awaiting: [],
    });
    const keys = [await keyDocument(), documents.get('/parties/buyer.json'), documents.get('/parties/seller.json')];
    const verdict = await verifyReceipt(body.receipt, {
      keys,
      payload: at(model.instance, 'review'),
      governance: settled.governance.decision_receipt,
    });
    expect(verdict.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(verdict.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['schema', 'receipt_hash', 'settlement.complete', 'payload_hash', 'governance.receipt_hash']),
    );

    // The CLI reads the same files a verifier holds: the status envelope, the key documents, the payload.
    const file = (name: string, value: unknown) =>
      writeFile(path.join(workdir, name), typeof value === 'string' ? value : JSON.stringify(value)).then(() => path.join(workdir, name));
    const keyFiles = await Promise.all(keys.map((k, i) => file(`keys-${i}.json`, k)));
    const args = keyFiles.flatMap((k) => ['--keys', k]);
    const cli = await runCli(
      ['vsl', 'verify', await file('status.json', body), ...args, '--payload', await file('payload.xml', at(model.instance, 'review'))],
      {},
    );
    expect([cli.code, cli.json.verified]).toEqual([0, true]);

    const tampered = { ...body.receipt, payload_hash: 'f'.repeat(64) };
    const refused = await runCli(['vsl', 'verify', await file('tampered.json', tampered), ...args], {});
    expect([refused.code, refused.json.checks.find((c: { name: string }) => c.name === 'receipt_hash').status]).toEqual([1, 'fail']);
    const broken = await verifyReceipt(tampered, { keys });
    expect(broken.checks.find((c) => c.name === 'receipt_hash')?.status).toBe('fail');
  });

  it('refuses a duplicate trigger (409), a trigger replayed from another Receipt, a DER signature and an unknown party', async () => {
    const duplicate = await client.post('/api/v1/vsl/trigger', await signTrigger(buyer, settled.receipt));
    expect([duplicate.status, duplicate.body.error_type]).toEqual([409, 'already_triggered']);

    const other = await client.post('/api/v1/vsl/settle', {
      payload: at(model.instance, 'review'),
      target_state: 'approved',
      condition,
      parties: [buyer.keyId, seller.keyId],
    });
    expect(other.body.receipt.settlement.condition_hash).toBe(settled.receipt.settlement.condition_hash);
    const replayed = { ...(await signTrigger(buyer, settled.receipt)), receipt_id: other.body.receipt.receipt_id };
    const replay = await client.post('/api/v1/vsl/trigger', replayed);
    expect([replay.status, replay.body.error_type]).toEqual([422, 'signature_invalid']);

    const der = await client.post('/api/v1/vsl/trigger', await signTrigger(buyer, other.body.receipt, 'der'));
    expect([der.status, der.body.error_type]).toEqual([422, 'signature_encoding']);

    const stranger = party('stranger');
    const unknown = await client.post('/api/v1/vsl/trigger', await signTrigger(stranger, other.body.receipt));
    expect([unknown.status, unknown.body.error_type]).toEqual([403, 'not_a_party']);
    const status = await client.get(`/api/v1/vsl/receipt/${other.body.receipt.receipt_id}`);
    expect([status.body.status, status.body.triggered]).toEqual(['awaiting_triggers', []]);
  });

  it('refuses a party key on the wrong curve, and one the key document does not answer', async () => {
    const p384 = party('p384', 'P-384');
    const ghost = { keyId: `${partyBase}/parties/ghost.json`, privateKey: buyer.privateKey };
    const res = await client.post('/api/v1/vsl/settle', {
      payload: at(model.instance, 'review'),
      target_state: 'approved',
      condition,
      parties: [p384.keyId, ghost.keyId],
    });
    const wrongCurve = await client.post('/api/v1/vsl/trigger', await signTrigger(p384, res.body.receipt));
    expect([wrongCurve.status, wrongCurve.body.error_type, wrongCurve.body.error]).toEqual([
      422,
      'party_key_unusable',
      expect.stringContaining('secp384r1'),
    ]);
    const missing = await client.post('/api/v1/vsl/trigger', await signTrigger(ghost, res.body.receipt));
    expect([missing.status, missing.body.error_type]).toEqual([422, 'party_key_unresolvable']);
  });

  it('refuses a key document past the size limit and one that redirects, without following it', async () => {
    const huge = { keyId: `${partyBase}/parties/huge.json`, privateKey: buyer.privateKey };
    const moved = { keyId: `${partyBase}/parties/moved.json`, privateKey: buyer.privateKey };
    const res = await client.post('/api/v1/vsl/settle', {
      payload: at(model.instance, 'review'),
      target_state: 'approved',
      condition,
      parties: [huge.keyId, moved.keyId],
    });
    const big = await client.post('/api/v1/vsl/trigger', await signTrigger(huge, res.body.receipt));
    expect([big.status, big.body.error_type, big.body.error]).toEqual([
      422,
      'party_key_unresolvable',
      expect.stringContaining('larger than 65536 bytes'),
    ]);
    const redirect = await client.post('/api/v1/vsl/trigger', await signTrigger(moved, res.body.receipt));
    expect([redirect.status, redirect.body.error_type, redirect.body.error]).toEqual([
      422,
      'party_key_unresolvable',
      expect.stringContaining('redirects are not followed'),
    ]);
  });

  it('chains a Receipt to the previous one through previous_hash', async () => {
    const next = await client.post('/api/v1/vsl/settle', {
      payload: at(model.instance, 'approved'),
      target_state: 'published',
      condition,
      parties: [buyer.keyId, seller.keyId],
      previous_receipt_id: settled.receipt.receipt_id,
    });
    expect([next.status, next.body.receipt.previous_hash]).toEqual([200, settled.receipt.receipt_hash]);
    const unknown = await client.post('/api/v1/vsl/settle', {
      payload: at(model.instance, 'approved'),
      target_state: 'published',
      condition,
      parties: [buyer.keyId, seller.keyId],
      previous_receipt_id: 'a'.repeat(24),
    });
    expect([unknown.status, unknown.body.error_type]).toEqual([404, 'receipt_not_found']);
  });
});

describe('governance refusals', () => {
  const parties = ['https://a.example/k.json', 'did:web:b.example'];
  const condition = { pay: true };

  it.each([
    ['a skip', 'draft', 'approved'],
    ['a reversal', 'approved', 'review'],
  ])('%s is a signed, charged DENY that refuses every trigger', async (_name, from, to) => {
    const { client, userId } = await customer(10);
    const res = await client.post('/api/v1/vsl/settle', { payload: at(model.instance, from), target_state: to, condition, parties });
    expect(res.status).toBe(200);
    expect(res.body.governance).toMatchObject({ decision: 'DENY', settleable: false, current_state: from, hint: expect.any(String) });
    expect(res.body.governance.allowed_transitions).toEqual([
      expect.objectContaining({ target_symbol: STATES[STATES.indexOf(from) + 1], target_state: STATES[STATES.indexOf(from) + 1] }),
    ]);
    expect(res.body.governance.workflow).toEqual([{ path: expect.stringMatching(/^mc-/), states: STATES }]);
    expect(res.body.receipt.governance.decision).toBe('DENY');
    expect(await walletBalance(userId)).toBe(9);
    const verdict = await verifyReceipt(res.body.receipt, { keys: [await keyDocument()] });
    expect(verdict.checks.filter((c) => c.status !== 'pass').map((c) => c.name)).toEqual(['settlement.complete']);
    const trigger = await client.post('/api/v1/vsl/trigger', {
      receipt_id: res.body.receipt.receipt_id,
      key_id: parties[0],
      signature: 'A'.repeat(86),
      timestamp: '2026-11-27T12:00:00Z',
    });
    expect([trigger.status, trigger.body.error_type]).toEqual([409, 'receipt_not_settleable']);
    expect((await client.get(`/api/v1/vsl/receipt/${res.body.receipt.receipt_id}`)).body.status).toBe('denied');
  });

  it.each([
    ['an unknown current state', (x: string) => at(x, 'lost'), 'review', true],
    ['an unknown target state', (x: string) => at(x, 'draft'), 'shipped', true],
    ['an invalid payload', (x: string) => at(x, 'draft').replace('<dm-label>', '<dm-label>not the label'), 'review', true],
  ])('%s answers 422 with the workflow and charges nothing', async (_name, edit, target, defines) => {
    const { client, userId } = await customer(10);
    const res = await client.post('/api/v1/vsl/settle', { payload: edit(model.instance), target_state: target, condition, parties });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      expect.objectContaining({
        error: expect.any(String),
        current_state: expect.anything(),
        allowed_transitions: expect.any(Array),
        workflow: expect.any(Array),
        hint: expect.any(String),
        model_defines_workflow_states: defines,
      }),
    );
    expect(await walletBalance(userId)).toBe(10);
  });

  it('a model without a workflow answers 422 saying the model defines no states', async () => {
    const { client, userId } = await customer(10);
    await app.services.packages.importPackage(path.join(SDC4_REFERENCE_DIR, '../packages/StatePopulation'));
    const xml = await readFile(path.join(SDC4_REFERENCE_DIR, '../packages/StatePopulation/dm-its7j6bvrb9n2fxdcxmoemod.xml'), 'utf8');
    const res = await client.post('/api/v1/vsl/settle', { payload: xml, target_state: 'review', current_state: 'draft', condition, parties });
    expect([res.status, res.body.model_defines_workflow_states, res.body.workflow]).toEqual([422, false, []]);
    expect(await walletBalance(userId)).toBe(10);
  });
});

describe('money', () => {
  it('50 concurrent settles against a wallet that pays for 20: 20 Receipts, 30 × 402, the ledger equals the wallet', async () => {
    const { client, userId } = await customer(20);
    const body = {
      payload: at(model.instance, 'draft'),
      target_state: 'review',
      condition: { n: 1 },
      parties: ['https://a.example/k.json', 'did:web:b.example'],
    };
    // A caller past its CPU-queue depth is told 429 with Retry-After and retries, as a client does: on a busy machine
    // more of the 50 wait at once. What is checked is the money, whatever the order of the retries.
    const settle = async () => {
      for (let attempt = 1; ; attempt++) {
        const answer = await client.post('/api/v1/vsl/settle', body);
        if (answer.status !== 429) return answer;
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    };
    const answers = await Promise.all(Array.from({ length: 50 }, settle));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(30);
    expect(answers.find((a) => a.status === 402)!.body).toMatchObject({ error: expect.any(String), error_type: 'insufficient_funds' });
    const receipts = Number((await app.services.db.query('SELECT count(*) AS n FROM vsl_receipts WHERE user_id = $1', [userId]))[0].n);
    expect(receipts).toBe(20);
    expect(await walletBalance(userId)).toBe(0);
    expect(await ledgerBalance(userId)).toBe(await walletBalance(userId));
  });

  it('answers a retry with the same Idempotency-Key with the first Receipt, charged once', async () => {
    const { client, userId } = await customer(5);
    const body = {
      payload: at(model.instance, 'draft'),
      target_state: 'review',
      condition: { n: 2 },
      parties: ['https://a.example/k.json', 'did:web:b.example'],
    };
    const first = await client.post('/api/v1/vsl/settle', body, { 'Idempotency-Key': 'settle-once' });
    const again = await client.post('/api/v1/vsl/settle', body, { 'Idempotency-Key': 'settle-once' });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(again.body.receipt.receipt_id).toBe(first.body.receipt.receipt_id);
    expect(await walletBalance(userId)).toBe(4);
  });

  it('needs the spend scope', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5 });
    const readOnly = client.withToken((await issueKey(client, { scopes: ['read'] })).key);
    const res = await readOnly.post('/api/v1/vsl/settle', {
      payload: model.instance,
      target_state: 'review',
      condition: {},
      parties: ['https://a.example/k.json', 'did:web:b.example'],
    });
    expect([res.status, res.body.error_type]).toEqual([403, 'key_scope']);
  });
});

describe('the issuer key document', () => {
  it('serves the Ed25519 JWKs unchanged and the P-256 issuer key in both forms, and keeps retired keys after rotation', async () => {
    const before = await keyDocument();
    expect(before.issuer).toEqual(expect.any(String));
    const keys = before.keys as Array<Record<string, unknown>>;
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(keys[0]).not.toHaveProperty('public_key_pem');
    expect(keys.find((k) => k.key_id === 'sdcstudio-signing-key-v1')).toMatchObject({
      algorithm: 'EC_SIGN_P256_SHA256',
      alg: 'ES256',
      public_key_pem: expect.stringContaining('BEGIN PUBLIC KEY'),
      status: 'active',
      not_after: null,
      kty: 'EC',
      crv: 'P-256',
      kid: 'sdcstudio-signing-key-v1',
      x: expect.any(String),
      y: expect.any(String),
    });
    const { client } = await customer(2);
    const old = await client.post('/api/v1/vsl/settle', {
      payload: at(model.instance, 'draft'),
      target_state: 'published',
      condition: {},
      parties: ['https://a.example/k.json', 'did:web:b.example'],
    });
    expect(old.body.receipt.signatures[0].key_id).toBe('sdcstudio-signing-key-v1');
    const rotated = await runCli(['vsl', 'keys', 'rotate'], { DATABASE_URL: app.databaseUrl });
    expect([rotated.code, rotated.json.active.key_id, rotated.json.retired.status]).toEqual([0, 'sdcstudio-signing-key-v2', 'retired']);
    const verdict = await verifyReceipt(old.body.receipt, { keys: [await keyDocument()] });
    expect(verdict.checks.find((c) => c.name === 'signature[sdcstudio-signing-key-v1]')?.status).toBe('pass');
    const after = (await keyDocument()).keys as Array<Record<string, unknown>>;
    expect(after.filter((k) => k.kty === 'EC').map((k) => [k.key_id, k.status])).toEqual([
      ['sdcstudio-signing-key-v2', 'active'],
      ['sdcstudio-signing-key-v1', 'retired'],
    ]);
  });
});

describe('the GraphQL surface', () => {
  const STATUS = 'receiptId status decision settleable parties triggered awaiting';

  it('settles, streams each trigger and the completion over settlementUpdated, and reads the Receipt', async () => {
    const { client, key, userId } = await customer(3);
    const [buyer, seller] = [party('gql-buyer'), party('gql-seller')];
    const settled = await client.graphql(
      `mutation ($payload: String!, $condition: JSONObject!, $parties: [String!]!) {
        settle(payload: $payload, targetState: "review", condition: $condition, parties: $parties, idempotencyKey: "gql-1") { receiptId decision settleable receipt wallet }
      }`,
      { payload: at(model.instance, 'draft'), condition: { n: 3 }, parties: [buyer.keyId, seller.keyId] },
    );
    expect(settled.body.errors).toBeUndefined();
    const { receiptId, receipt } = settled.body.data.settle;
    expect(settled.body.data.settle).toMatchObject({ decision: 'PERMIT', settleable: true, wallet: { charged_credits: 1, balance_credits: 2 } });
    expect(await walletBalance(userId)).toBe(2);

    const updates = subscribe(
      app.url,
      `subscription ($id: String!) { settlementUpdated(receiptId: $id) { ${STATUS} } }`,
      'settlementUpdated',
      { token: key },
      { id: receiptId },
    );
    await updates.until((u) => u.status === 'awaiting_triggers');
    const trigger = `mutation ($r: String!, $k: String!, $s: String!, $t: String!) { trigger(receiptId: $r, keyId: $k, signature: $s, timestamp: $t) { ${STATUS} } }`;
    for (const p of [buyer, seller]) {
      const t = await signTrigger(p, receipt);
      const res = await client.graphql(trigger, { r: t.receipt_id, k: t.key_id, s: t.signature, t: t.timestamp });
      expect(res.body.errors).toBeUndefined();
    }
    await updates.done;
    expect(updates.items.map((u: { triggered: string[]; status: string }) => [u.triggered.length, u.status])).toEqual([
      [0, 'awaiting_triggers'],
      [1, 'awaiting_triggers'],
      [2, 'settled'],
    ]);
    const read = await client.graphql(`query ($id: String!) { receipt(receiptId: $id) { ${STATUS} receipt } }`, { id: receiptId });
    expect(read.body.data.receipt).toMatchObject({ status: 'settled', awaiting: [], triggered: [buyer.keyId, seller.keyId] });
    expect(read.body.data.receipt.receipt.settlement.triggers).toHaveLength(2);

    const refused = await client.graphql(trigger, { r: receiptId, k: buyer.keyId, s: 'A'.repeat(86), t: '2026-11-27T12:00:00Z' });
    expect(refused.body.errors[0].extensions.code).toBe('already_triggered');
  });
});
