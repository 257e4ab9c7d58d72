import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileSchema } from '../../src/xml/schema';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { zipEntries } from '../support/zip';

/** The desktop modeling tool's flow, call by call, as ../shared/spec/clients.md lists it: mint one component of
 * each type, group them, make a model, PATCH labels, enumerations and semantic links, publish, generate, and
 * validate the generated instance against the real sdc4.xsd. Components, clusters and models are charged at the
 * assembly's prices (100, 100, 500 credits). Then the refusals around money and ownership. */

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const SDC4_XSD_URL = 'https://semanticdatacharter.com/ns/sdc4/sdc4.xsd';
const sdc4Xsd = readFileSync(path.join(FIXTURES, 'sdc4/reference/sdc4.xsd'), 'utf8');

const SLUG_BODIES: Record<string, Record<string, unknown>> = {
  'xd-strings': {},
  'xd-booleans': {},
  'xd-tokens': {},
  'xd-links': {},
  'xd-files': {},
  'xd-counts': { units: 'items' },
  'xd-quantities': { units: 'kg' },
  'xd-floats': { units: 'mg/dL' },
  'xd-doubles': { units: 'mmHg' },
  'xd-ordinals': { enums: 'mild\nmoderate\nsevere', enum_descr: 'severe: Needs care now' },
  'xd-temporals': { allow_date: false, allow_datetime: true },
};

let app: TestApp;
let storageDir: string;
beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'drafts-flow-'));
  app = await startTestApp({ storageDir });
});
afterAll(async () => {
  await app.close();
  await rm(storageDir, { recursive: true, force: true });
});

/** A user with `credits` and a key (every scope unless `scopes` says otherwise), seen as the tools see it. */
async function modeler(credits: number, scopes?: string[]) {
  const { user, client } = await signedIn(app.url, app.services, { credits });
  const key = await issueKey(client, scopes ? { scopes } : {});
  const tool = client.withToken(key.key);
  const project = (await tool.get('/api/v1/auth/modeler/')).body.project_ct_id as string;
  return { user, tool, project, key: key.key };
}

const componentCount = async (userId: number) =>
  Number((await app.services.db.query('SELECT count(*) AS n FROM components WHERE owner_id = $1', [userId]))[0].n);
const clusterCount = async (userId: number) =>
  Number((await app.services.db.query('SELECT count(*) AS n FROM clusters WHERE owner_id = $1', [userId]))[0].n);
const modelCount = async (userId: number) =>
  Number((await app.services.db.query('SELECT count(*) AS n FROM data_models WHERE owner_id = $1', [userId]))[0].n);
const chargeCount = async (userId: number) =>
  Number((await app.services.db.query(`SELECT count(*) AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'charge'`, [userId]))[0].n);

async function download(url: string, key: string): Promise<Buffer> {
  const res = await fetch(`${app.url}${url}`, { headers: { authorization: `Token ${key}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The charge headers of a drafts create: the price and the balance after it, in dollars and in credits. */
function expectCharged(res: { status: number; headers: Headers }, price: number, balance: number) {
  expect(res.status).toBe(201);
  expect(res.headers.get('x-sdc-estimated-cost')).toBe((price / 1000).toFixed(3));
  expect(res.headers.get('x-sdc-estimated-cost-credits')).toBe(String(price));
  expect(res.headers.get('x-sdc-balance-remaining')).toBe((balance / 1000).toFixed(3));
  expect(res.headers.get('x-sdc-balance-remaining-credits')).toBe(String(balance));
}

async function mint(tool: HttpClient, project: string, slug: string, extra: Record<string, unknown> = {}) {
  return tool.post(`/api/v1/dmgen/${slug}/`, { project, label: `My ${slug}`, description: `A ${slug}`, public: false, ...extra });
}

describe('the desktop modeling tool draft flow', () => {
  it('mints one component of each type, builds a model, edits it, publishes, generates a valid package', async () => {
    const { user, tool, project, key } = await modeler(10_000);
    const minted: Record<string, string> = {};
    let balance = 10_000;
    for (const [slug, extra] of Object.entries(SLUG_BODIES)) {
      const res = await mint(tool, project, slug, extra);
      expect([slug, res.status]).toEqual([slug, 201]);
      balance -= 100;
      expect(res.body).toMatchObject({ ct_id: expect.any(String), id: expect.any(Number), published: false, project });
      expect(res.headers.get('x-sdc-estimated-cost')).toBe('0.100');
      expect(res.headers.get('x-sdc-balance-remaining')).toBe((balance / 1000).toFixed(3));
      expect(res.headers.get('x-sdc-estimated-cost-credits')).toBe('100');
      minted[slug] = res.body.ct_id;
    }
    expect((await tool.get('/api/v1/wallet/')).body.balance_credits).toBe(8_900);
    expect(await chargeCount(user.id)).toBe(11);
    expect((await tool.get(`/api/v1/dmgen/xd-ordinals/${minted['xd-ordinals']}/`)).body).toMatchObject({
      enums: 'mild\nmoderate\nsevere',
      enum_descr: 'severe: Needs care now',
    });
    expect((await tool.get(`/api/v1/dmgen/xd-temporals/${minted['xd-temporals']}/`)).body).toMatchObject({ allow_date: false, allow_datetime: true });

    // The semantic vocabulary: a namespace, a predicate (created once), a predicate-object pair.
    const namespaces = await tool.get('/api/v1/dmgen/namespaces/?page_size=200');
    expect(namespaces.body.results).toEqual(expect.arrayContaining([expect.objectContaining({ abbrev: 'skos' })]));
    const ns = await tool.post('/api/v1/dmgen/namespaces/', { abbrev: 'ex', uri: 'https://example.org/vocab#' });
    expect(ns.status).toBe(201);
    const predicate = await tool.post('/api/v1/dmgen/predicates/', { ns_abbrev: ns.body.id, class_name: 'measures' });
    expect(predicate.status).toBe(201);
    expect(predicate.body).toMatchObject({ ns_prefix: 'ex', class_name: 'measures' });
    const again = await tool.post('/api/v1/dmgen/predicates/', { ns_abbrev: 'ex', class_name: 'measures' });
    expect([again.status, again.body.id]).toEqual([200, predicate.body.id]);
    const po = await tool.post('/api/v1/dmgen/pred-objs/', {
      predicate: predicate.body.id,
      object_uri: 'https://example.org/concepts/Severity',
      po_name: 'severity',
      project,
    });
    expect(po.status).toBe(201);
    expect(po.body).toMatchObject({ predicate: predicate.body.id, project });
    expect((await tool.get('/api/v1/dmgen/pred-objs/')).body.results.map((r: { id: number }) => r.id)).toContain(po.body.id);

    // A cluster of two components inside a root cluster of the rest; then the model.
    const inner = await tool.post('/api/v1/dmgen/clusters/', {
      project,
      label: 'Measurements',
      public: false,
      xdquantity: [minted['xd-quantities']],
      xdcount: [minted['xd-counts']],
    });
    expectCharged(inner, 100, 8_800);
    const rest = Object.entries(minted).filter(([slug]) => !['xd-quantities', 'xd-counts'].includes(slug));
    const rootBody: Record<string, unknown> = { project, label: 'Visit', description: 'One visit', public: false };
    for (const [slug, ctId] of rest) rootBody[slug.replace(/^xd-/, 'xd').replace(/ies$/, 'y').replace(/s$/, '')] = [ctId];
    rootBody.clusters = [inner.body.ct_id];
    const root = await tool.post('/api/v1/dmgen/clusters/', rootBody);
    expectCharged(root, 100, 8_700);
    expect(root.body.children).toHaveLength(10);
    expect(root.body.clusters).toEqual([inner.body.ct_id]);
    const dm = await tool.post('/api/v1/dmgen/dms/', {
      project,
      title: 'Clinic visit',
      data: root.body.id, // the desktop tool roots the model by the cluster's numeric id
      description: 'A visit record',
      dc_subject: 'health',
      publisher: 'Example Clinic',
      rights: 'CC-BY-4.0',
      language: 'en-GB',
    });
    // The model price alone: its root cluster exists already (assembly's 500 is "the model with its root cluster").
    expectCharged(dm, 500, 8_200);
    expect((await tool.get('/api/v1/wallet/')).body.balance_credits).toBe(8_200);
    expect(await chargeCount(user.id)).toBe(14);
    expect(dm.body).toMatchObject({ title: 'Clinic visit', data: root.body.ct_id, language: 'en-GB', published: false });
    const dmCtId = dm.body.ct_id as string;

    // PATCH labels, enumerations and semantic links while drafts.
    const stringCt = minted['xd-strings'];
    const patched = await tool.patch(`/api/v1/dmgen/xd-strings/${stringCt}/`, {
      label: 'Smoking status',
      enums: 'never\nformer\ncurrent',
      enum_descr: 'never: Never smoked\ncurrent: Smokes now',
      pred_obj: [po.body.id],
    });
    expect(patched.status).toBe(200);
    expect((await tool.get(`/api/v1/dmgen/xd-strings/${stringCt}/`)).body).toMatchObject({
      label: 'Smoking status',
      enums: 'never\nformer\ncurrent',
      enum_descr: 'never: Never smoked\ncurrent: Smokes now',
      pred_obj: [po.body.id],
    });
    expect((await tool.patch(`/api/v1/dmgen/clusters/${root.body.ct_id}/`, { label: 'Clinic visit data', pred_obj: [po.body.id] })).status).toBe(200);
    expect((await tool.patch(`/api/v1/dmgen/dms/${dmCtId}/`, { title: 'Clinic visit record' })).body.title).toBe('Clinic visit record');
    const bad = await tool.patch(`/api/v1/dmgen/xd-strings/${stringCt}/`, { enum_descr: 'unknown: no such value' });
    expect([bad.status, bad.body.error_type]).toEqual([400, 'invalid_request']);

    // Publish bottom-up, then the drafts are immutable.
    const published = await tool.post(`/api/v1/dmgen/dms/${dmCtId}/publish/`);
    expect([published.status, published.body.published]).toEqual([200, true]);
    for (const [slug, ctId] of Object.entries(minted))
      expect([slug, (await tool.get(`/api/v1/dmgen/${slug}/${ctId}/`)).body.published]).toEqual([slug, true]);
    const frozen = await tool.patch(`/api/v1/dmgen/xd-strings/${stringCt}/`, { label: 'Too late' });
    expect([frozen.status, frozen.body.error_type]).toEqual([409, 'published_immutable']);
    expect((await tool.patch(`/api/v1/dmgen/clusters/${inner.body.ct_id}/`, { label: 'Too late' })).status).toBe(409);
    expect((await tool.patch(`/api/v1/dmgen/dms/${dmCtId}/`, { title: 'Too late' })).status).toBe(409);

    // Edits and publishing charge nothing.
    expect((await tool.get('/api/v1/wallet/')).body.balance_credits).toBe(8_200);

    // Generate the package; its instance is valid against its XSD and the real sdc4.xsd.
    const generated = await tool.post(`/api/v1/dmgen/dms/${dmCtId}/generate/`);
    expect(generated.status).toBe(200);
    const entries = await zipEntries(await download(`/api/v1/catalog/dm/${dmCtId}/package/`, key));
    const xsd = entries.get(`dm-${dmCtId}.xsd`)!.toString();
    expect(xsd).toContain('<xsd:enumeration value="former"/>');
    expect(xsd).toContain('<xsd:documentation>Smokes now</xsd:documentation>');
    expect(xsd).toContain('<po:measures xmlns:po="https://example.org/vocab#" rdf:resource="https://example.org/concepts/Severity"/>');
    expect(xsd).toContain('<dc:publisher>Example Clinic</dc:publisher>');
    expect(xsd).not.toContain('name="xdtemporal-date"');
    const instance = entries.get(`dm-${dmCtId}.xml`)!.toString();
    expect(instance).toContain('<xdstring-value>never</xdstring-value>');
    expect(instance).toContain('<symbol>mild</symbol>');
    const compiled = await compileSchema({ name: `dm-${dmCtId}.xsd`, content: xsd }, async (location) =>
      location === SDC4_XSD_URL ? sdc4Xsd : null,
    );
    expect(compiled.validate(instance)).toEqual([]);
    expect(entries.get(`dm-${dmCtId}.ttl`)!.toString()).toContain('<https://example.org/vocab#measures> <https://example.org/concepts/Severity>');
  });

  it('lists the owner’s components page by page with next', async () => {
    const { tool, project } = await modeler(1_000);
    for (const label of ['a', 'b', 'c']) expect((await mint(tool, project, 'xd-booleans', { label })).status).toBe(201);
    const first = await tool.get('/api/v1/dmgen/xd-booleans/?page_size=2');
    expect(first.body).toMatchObject({ count: 3, previous: null });
    expect(first.body.results.map((r: { label: string }) => r.label)).toEqual(['a', 'b']);
    const next = await tool.get(new URL(first.body.next).pathname + new URL(first.body.next).search);
    expect(next.body).toMatchObject({ count: 3, next: null });
    expect(next.body.results.map((r: { label: string }) => r.label)).toEqual(['c']);
  });
});

describe('the drafts API in GraphQL', () => {
  it('mints a component with an enumeration, edits it and clears the enumeration', async () => {
    const { tool } = await modeler(1_000);
    const created = await tool.graphql(
      `mutation ($input: DraftComponentInput!) {
        createDraftComponent(input: $input) { estimatedCostCredits balanceCredits component { ctId dataType enums enumDescr published } }
      }`,
      { input: { dataType: 'XdToken', label: 'Code', enums: ['A', 'B'], enumDescr: { A: 'Alpha' } } },
    );
    const minted = created.body.data.createDraftComponent;
    expect(minted).toMatchObject({
      estimatedCostCredits: 100,
      balanceCredits: 900,
      component: { dataType: 'XdToken', enums: ['A', 'B'], enumDescr: { A: 'Alpha' }, published: false },
    });
    const updated = await tool.graphql(
      `mutation ($ctId: String!) { updateDraftComponent(dataType: "XdToken", ctId: $ctId, input: { label: "Code 2", enums: null }) { label enums enumDescr } }`,
      { ctId: minted.component.ctId },
    );
    expect(updated.body.data.updateDraftComponent).toEqual({ label: 'Code 2', enums: [], enumDescr: {} });
    const read = await tool.get(`/api/v1/dmgen/xd-tokens/${minted.component.ctId}/`);
    expect(read.body).toMatchObject({ label: 'Code 2', enums: '', enum_descr: '' });
    const cluster = await tool.graphql(`mutation ($input: DraftClusterInput!) { createDraftCluster(input: $input) { ctId } }`, {
      input: { label: 'Codes', components: [minted.component.ctId] },
    });
    expect(cluster.body.data.createDraftCluster.ctId).toEqual(expect.any(String));
    expect((await tool.get('/api/v1/wallet/')).body.balance_credits).toBe(800);
  });
});

describe('refusals around minting and ownership', () => {
  it('a key without spend is refused with key_scope and creates nothing', async () => {
    const { user, tool, project } = await modeler(1_000, ['read', 'build']);
    const res = await mint(tool, project, 'xd-strings');
    expect([res.status, res.body.error_type]).toEqual([403, 'key_scope']);
    expect(await componentCount(user.id)).toBe(0);
  });

  it('a key without spend is refused with key_scope on cluster and model create, and nothing is charged', async () => {
    const { user, tool, project } = await modeler(1_000, ['read', 'build']);
    const cluster = await tool.post('/api/v1/dmgen/clusters/', { project, label: 'Visit', clusters: [] });
    expect([cluster.status, cluster.body.error_type]).toEqual([403, 'key_scope']);
    const model = await tool.post('/api/v1/dmgen/dms/', { project, title: 'Visit', data: 'poq4ywx89zvijxwoqz8djrxj' });
    expect([model.status, model.body.error_type]).toEqual([403, 'key_scope']);
    expect([await clusterCount(user.id), await modelCount(user.id), await chargeCount(user.id)]).toEqual([0, 0, 0]);
    expect((await tool.get('/api/v1/wallet/')).body.balance_credits).toBe(1_000);
  });

  it('a wallet that cannot pay a cluster or a model answers 402 with the headers and creates nothing', async () => {
    const { user, tool, project } = await modeler(150);
    const ctId = (await mint(tool, project, 'xd-strings')).body.ct_id;
    const poor = await tool.post('/api/v1/dmgen/clusters/', { project, label: 'Visit', xdstring: [ctId] });
    expect([poor.status, poor.body.error_type]).toEqual([402, 'insufficient_funds']);
    expect(poor.headers.get('x-sdc-estimated-cost')).toBe('0.100');
    expect(poor.headers.get('x-sdc-balance-remaining')).toBe('0.050');
    expect(await clusterCount(user.id)).toBe(0);
    await app.services.ledger.credit(user.id, 500, 'top-up');
    const cluster = await tool.post('/api/v1/dmgen/clusters/', { project, label: 'Visit', xdstring: [ctId] });
    expectCharged(cluster, 100, 450);
    const model = await tool.post('/api/v1/dmgen/dms/', { project, title: 'Visit', data: cluster.body.ct_id });
    expect([model.status, model.body.error_type]).toEqual([402, 'insufficient_funds']);
    expect(model.headers.get('x-sdc-estimated-cost-credits')).toBe('500');
    expect(model.body).toMatchObject({ estimated_cost: '0.500', balance: '0.450' });
    expect(await modelCount(user.id)).toBe(0);
    expect(await chargeCount(user.id)).toBe(2);
  });

  it('a replay with the same Idempotency-Key answers the first cluster and model and charges once', async () => {
    const { user, tool, project } = await modeler(1_000);
    const ctId = (await mint(tool, project, 'xd-strings')).body.ct_id;
    const body = { project, label: 'Once', xdstring: [ctId] };
    const first = await tool.post('/api/v1/dmgen/clusters/', body, { 'Idempotency-Key': 'cluster-once-1' });
    const second = await tool.post('/api/v1/dmgen/clusters/', body, { 'Idempotency-Key': 'cluster-once-1' });
    expectCharged(first, 100, 800);
    expect([second.status, second.body.ct_id]).toEqual([201, first.body.ct_id]);
    const modelBody = { project, title: 'Once', data: first.body.ct_id };
    const dm = await tool.post('/api/v1/dmgen/dms/', modelBody, { 'Idempotency-Key': 'model-once-1' });
    const dmAgain = await tool.post('/api/v1/dmgen/dms/', modelBody, { 'Idempotency-Key': 'model-once-1' });
    expectCharged(dm, 500, 300);
    expect([dmAgain.status, dmAgain.body.ct_id]).toEqual([201, dm.body.ct_id]);
    expect([await clusterCount(user.id), await modelCount(user.id), await chargeCount(user.id)]).toEqual([1, 1, 3]);
    expect((await tool.get('/api/v1/wallet/')).body.balance_credits).toBe(300);
  });

  it('an empty wallet answers 402 with the dollar headers and creates nothing', async () => {
    const { user, tool, project } = await modeler(0);
    const res = await mint(tool, project, 'xd-counts', { units: 'items' });
    expect([res.status, res.body.error_type]).toEqual([402, 'insufficient_funds']);
    expect(res.headers.get('x-sdc-estimated-cost')).toBe('0.100');
    expect(res.headers.get('x-sdc-balance-remaining')).toBe('0.000');
    expect(res.body).toMatchObject({ estimated_cost: '0.100', balance: '0.000' });
    expect(await componentCount(user.id)).toBe(0);
  });

  it('another user’s draft is not found, to read or to edit', async () => {
    const owner = await modeler(1_000);
    const other = await modeler(1_000);
    const ctId = (await mint(owner.tool, owner.project, 'xd-strings')).body.ct_id;
    const created = await owner.tool.post('/api/v1/dmgen/clusters/', { project: owner.project, label: 'Mine', xdstring: [ctId] });
    const cluster = created.body.ct_id;
    expect((await other.tool.post('/api/v1/dmgen/dms/', { title: 'Not theirs', data: created.body.id })).status).toBe(400);
    expect((await other.tool.get(`/api/v1/dmgen/xd-strings/${ctId}/`)).status).toBe(404);
    expect((await other.tool.patch(`/api/v1/dmgen/xd-strings/${ctId}/`, { label: 'Stolen' })).status).toBe(404);
    expect((await other.tool.get(`/api/v1/dmgen/clusters/${cluster}/`)).status).toBe(404);
    const refused = await other.tool.post('/api/v1/dmgen/clusters/', { project: other.project, label: 'Theirs', xdstring: [ctId] });
    expect(refused.status).toBe(400);
    expect((await other.tool.post('/api/v1/dmgen/xd-strings/', { project: owner.project, label: 'x' })).status).toBe(404);
    expect((await owner.tool.get(`/api/v1/dmgen/xd-strings/${ctId}/`)).body.label).toBe('My xd-strings');
  });

  it('a replay with the same Idempotency-Key answers the first component and charges once', async () => {
    const { user, tool, project } = await modeler(1_000);
    const body = { project, label: 'Once', public: false };
    const first = await tool.post('/api/v1/dmgen/xd-strings/', body, { 'Idempotency-Key': 'mint-once-1' });
    const second = await tool.post('/api/v1/dmgen/xd-strings/', body, { 'Idempotency-Key': 'mint-once-1' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.ct_id).toBe(first.body.ct_id);
    expect(await chargeCount(user.id)).toBe(1);
    expect(await componentCount(user.id)).toBe(1);
    expect((await tool.get('/api/v1/wallet/')).body.balance_credits).toBe(900);
  });
});
