import { randomBytes } from 'node:crypto';
import { libraryComponent } from '../support/catalog-factories';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

/** The agent toolkit's assembly flow, call by call, as its studio client makes and reads them (SDC_Agents
 * `toolsets/assembly.py` and `catalog.py`; clients.md): Authorization: Token, dollar headers read first, a 202
 * polled on /dmgen/tasks/{task_id}/ until `completed` or `failed`. */

const ASSEMBLE = '/api/v1/dmgen/assemble/';
const ESTIMATE = '/api/v1/dmgen/assemble/estimate/';
const PRICE = { model: 500, cluster: 100, component: 100 };

let app: TestApp;
const tag = randomBytes(3).toString('hex');
const labels = { pulse: `Pulse ${tag}`, site: `Site ${tag}` };
let library: Record<keyof typeof labels, string>;
beforeAll(async () => {
  app = await startTestApp();
  library = {
    pulse: (await libraryComponent(app.services, { label: labels.pulse, dataType: 'XdCount', units: 'beats/min' })).ctId,
    site: (await libraryComponent(app.services, { label: labels.site, dataType: 'XdString' })).ctId,
  };
});
afterAll(() => app.close());

/** What the toolkit reads from the headers of a charging answer, 402 included. */
const money = (res: { headers: Headers }) => ({
  cost: res.headers.get('x-sdc-estimated-cost'),
  balance: res.headers.get('x-sdc-balance-remaining'),
  costCredits: res.headers.get('x-sdc-estimated-cost-credits'),
  balanceCredits: res.headers.get('x-sdc-balance-remaining-credits'),
});

/** A toolkit session: a key with build and spend, sent as `Authorization: Token <key>`. */
async function toolkit(credits: number): Promise<{ studio: HttpClient; session: HttpClient; userId: number }> {
  const { client, user } = await signedIn(app.url, app.services, { credits });
  const key = await issueKey(client, { scopes: ['build', 'spend'] });
  return { studio: client.withToken(key.key), session: client, userId: user.id };
}

/** The toolkit's discovery: the first published component whose label matches. */
async function discover(studio: HttpClient, search: string): Promise<string> {
  const res = await studio.get(`/api/v1/dmgen/components/?status=published&search=${encodeURIComponent(search)}&page_size=10`);
  expect(res.status).toBe(200);
  const hit = res.body.results.find((r: { label: string }) => r.label === search);
  expect(hit).toMatchObject({ published: true });
  return hit.ct_id;
}

/** Polls the task every 100 ms (the toolkit waits 5 s) until a final status, recording each status seen. */
async function pollTask(studio: HttpClient, taskId: string, seen: string[], timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await studio.get(`/api/v1/dmgen/tasks/${taskId}/`);
    expect(res.status).toBe(200);
    seen.push(res.body.status);
    if (['complete', 'completed', 'published', 'failed', 'error'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each leaf's label → type in a catalog model's component tree. */
function leafTypes(nodes: Array<{ type: string; label: string; children: any[] }>): Record<string, string> {
  return Object.assign({}, ...nodes.map((n) => (n.type === 'Cluster' ? leafTypes(n.children) : { [n.label]: n.type })));
}

async function ledgerSum(userId: number): Promise<number> {
  const [row] = await app.services.db.query('SELECT coalesce(sum(amount_credits), 0)::bigint AS s FROM ledger_entries WHERE user_id = $1', [userId]);
  return Number(row.s);
}

describe('the toolkit assembly flow', () => {
  it('checks the wallet, discovers, assembles reuse (200) and mixed (202), polls the task to completion', async () => {
    const { studio, session, userId } = await toolkit(123_456_789);
    expect((await session.patch('/api/v1/wallet/auto-reload/', { enabled: false, threshold_credits: 999, amount_credits: 1000 })).status).toBe(200);

    const wallet = await studio.get('/api/v1/wallet/');
    expect(wallet.status).toBe(200);
    expect(wallet.body).toMatchObject({
      balance: '123456.789',
      balance_credits: 123_456_789,
      auto_reload_enabled: false,
      auto_reload_threshold: '0.999',
      auto_reload_amount: '1.000',
      auto_reload: { enabled: false, threshold_credits: 999, amount_credits: 1000 },
    });

    const pulse = await discover(studio, labels.pulse);
    const site = await discover(studio, labels.site);
    expect([pulse, site]).toEqual([library.pulse, library.site]);

    const contextual = {
      audit: null,
      attestation: null,
      party: null,
      subject: null,
      provider: null,
      participation: null,
      protocol: null,
      workflow: null,
      acs: null,
    };
    const reuse = {
      title: `Visits ${tag}`,
      description: 'Reused only',
      data: { label: 'Visit', components: [{ ct_id: pulse }, { ct_id: site }] },
      contextual,
    };
    const estimate = await studio.post(ESTIMATE, reuse);
    expect(estimate.status).toBe(200);
    expect(money(estimate)).toEqual({ cost: '0.500', balance: '123456.789', costCredits: '500', balanceCredits: '123456789' });

    const built = await studio.post(ASSEMBLE, reuse);
    expect(built.status).toBe(200);
    expect(money(built)).toEqual({ cost: '0.500', balance: '123456.289', costCredits: '500', balanceCredits: '123456289' });
    expect(built.body).toMatchObject({ title: `Visits ${tag}` });
    expect(built.body.ct_id).toMatch(/^[a-z0-9]+$/);
    expect(Object.keys(built.body.artifacts)).toEqual(expect.arrayContaining(['xsd', 'xml', 'zip']));

    const mixed = {
      title: `Quality ${tag}`,
      description: 'A reused pulse, a coded flag and a count from a source column',
      data: {
        label: 'Readings',
        components: [
          { ct_id: pulse },
          {
            label: 'Quality flag',
            data_type: 'string',
            description: 'Reviewer flag',
            enumeration: { '1': 'Acceptable', '2': 'Questionable', '9': 'Not assessed' },
          },
        ],
        clusters: [{ label: 'Counts', components: [{ label: 'Visits', data_type: 'integer', units: '{visits}' }] }],
      },
      contextual,
    };
    const mixedPrice = PRICE.model + PRICE.cluster + 2 * PRICE.component;
    const queued = await studio.post(ASSEMBLE, mixed);
    expect(queued.status).toBe(202);
    expect(money(queued)).toEqual({ cost: '0.800', balance: '123456.289', costCredits: String(mixedPrice), balanceCredits: '123456289' });
    expect(queued.body).toMatchObject({
      task_id: expect.any(String),
      data_source_ct_id: expect.any(String),
      estimated_cost: '0.800',
      estimated_cost_credits: mixedPrice,
      new_components: 2,
    });
    expect(queued.body.status).toBe('processing');

    const seen: string[] = [];
    const done = await pollTask(studio, queued.body.task_id, seen);
    expect(done).toMatchObject({ status: 'completed', title: `Quality ${tag}`, task_id: queued.body.task_id });
    expect(done.dm_ct_id).toMatch(/^[a-z0-9]+$/);
    expect(done.ct_id).toBe(done.dm_ct_id);
    expect(done.artifacts.xsd).toBe(`${app.url}/api/v1/catalog/dm/${done.dm_ct_id}/xsd/`);
    expect(seen.slice(0, -1).every((s) => s === 'queued' || s === 'processing')).toBe(true);
    expect(await ledgerSum(userId)).toBe(123_456_789 - PRICE.model - mixedPrice);

    // The source words became SDC4 types; the flag keeps its codes in order and their labels (the drafts API's
    // enums and enum_descr, which the package writes as enumeration facets).
    const model = await studio.get(`/api/v1/catalog/dm/${done.dm_ct_id}/`);
    expect(leafTypes(model.body.components)).toEqual({ [labels.pulse]: 'XdCount', 'Quality flag': 'XdString', Visits: 'XdCount' });
    const [flag] = await app.services.db.query(
      `SELECT co.enums, co.enum_descr, co.status FROM components co JOIN data_models dm ON dm.owner_id = co.owner_id
        WHERE dm.ct_id = $1 AND co.label = 'Quality flag'`,
      [done.dm_ct_id],
    );
    expect(flag).toEqual({
      enums: ['1', '2', '9'],
      enum_descr: { '1': 'Acceptable', '2': 'Questionable', '9': 'Not assessed' },
      status: 'published',
    });
    const xsd = await studio.get(new URL(done.artifacts.xsd).pathname);
    expect(xsd.status).toBe(200);
    expect(xsd.text).toContain('<xsd:element maxOccurs="1" minOccurs="1" name="xdcount-value" type="xsd:integer"/>');
    expect(xsd.text).toMatch(/<xsd:enumeration value="1">\s*<xsd:annotation><xsd:documentation>Acceptable<\/xsd:documentation><\/xsd:annotation>/);
    expect(xsd.text).toMatch(/<xsd:enumeration value="9">\s*<xsd:annotation><xsd:documentation>Not assessed<\/xsd:documentation>/);
  });

  it('gets 402 with the dollar headers and every body field the toolkit reads, and nothing is charged', async () => {
    const { studio, userId } = await toolkit(999);
    const res = await studio.post(ASSEMBLE, {
      title: 'Too dear',
      data: {
        label: 'Root',
        components: [{ ct_id: library.pulse }, ...Array.from({ length: 5 }, (_, i) => ({ label: `New ${i}`, data_type: 'decimal', units: 'kg' }))],
      },
    });
    expect(res.status).toBe(402);
    expect(money(res)).toEqual({ cost: '1.000', balance: '0.999', costCredits: '1000', balanceCredits: '999' });
    expect(res.body).toMatchObject({
      error: expect.stringMatching(/insufficient funds/i),
      error_type: 'insufficient_funds',
      estimated_cost: '1.000',
      balance: '0.999',
      estimated_cost_credits: 1000,
      balance_credits: 999,
      balance_remaining_credits: 999,
    });
    expect(await ledgerSum(userId)).toBe(999);
  });

  it('carries exact dollars for 1 and 1,000 credits: a 402 from one credit, a charge of exactly 1,000', async () => {
    const poor = await toolkit(1);
    expect((await poor.studio.get('/api/v1/wallet/')).body).toMatchObject({ balance: '0.001', balance_credits: 1 });
    const refused = await poor.studio.post(ASSEMBLE, { title: 'One credit', data: { label: 'Root', components: [{ ct_id: library.site }] } });
    expect(refused.status).toBe(402);
    expect(money(refused)).toEqual({ cost: '0.500', balance: '0.001', costCredits: '500', balanceCredits: '1' });
    expect(refused.body).toMatchObject({ estimated_cost: '0.500', balance: '0.001' });

    const exact = await toolkit(1000);
    const clusters = Array.from({ length: 5 }, (_, i) => ({ label: `Group ${i}`, components: [{ ct_id: library.site }] }));
    const res = await exact.studio.post(ASSEMBLE, { title: 'A thousand', data: { label: 'Root', clusters }, generate: false });
    expect(res.status).toBe(200);
    expect(money(res)).toEqual({ cost: '1.000', balance: '0.000', costCredits: '1000', balanceCredits: '0' });
    expect((await exact.studio.get('/api/v1/wallet/')).body).toMatchObject({ balance: '0.000', balance_credits: 0 });
  });

  it("answers another user's task 404 and staff 200", async () => {
    const owner = await toolkit(10_000);
    const queued = await owner.studio.post(ASSEMBLE, {
      title: 'Private',
      publish: false,
      data: { label: 'Root', components: [{ label: 'Note', data_type: 'XdString' }] },
    });
    expect(queued.status).toBe(202);
    const stranger = await toolkit(0);
    const hidden = await stranger.studio.get(`/api/v1/dmgen/tasks/${queued.body.task_id}/`);
    expect(hidden.status).toBe(404);
    expect((await stranger.studio.get('/api/v1/dmgen/tasks/00000000-0000-0000-0000-000000000000/')).status).toBe(404);
    const staff = await signedIn(app.url, app.services, { staff: true });
    const seen = await staff.client.get(`/api/v1/dmgen/tasks/${queued.body.task_id}/`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ task_id: queued.body.task_id, title: 'Private' });
    await pollTask(owner.studio, queued.body.task_id, []);
  });
});
