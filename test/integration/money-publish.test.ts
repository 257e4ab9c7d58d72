import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import type { HttpClient } from '../support/http';
import { finalJob } from '../support/wait';
import { libraryComponent } from '../support/catalog-factories';
import { ASSEMBLE, mixedBody, moneyAudit } from './money-helpers';

/** Publishing a draft tree charges exactly what no door charged for (migration 0026's `paid`): entries minted by a
 * charging door (the drafts API, assembly, a CSV upload) publish for 0; entries minted any other way are charged by
 * the price table at publish, and a wallet that cannot pay is refused with 402 before anything changes. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterEach(async () => expect(await moneyAudit(app.services.db)).toEqual([]));
afterAll(() => app.close());

const PUBLISH_GQL = 'mutation ($ctId: String!) { publishDraftModel(ctId: $ctId) { ctId published } }';
const publishRest = (client: HttpClient, ctId: string) => client.post(`/api/v1/dmgen/dms/${ctId}/publish/`, {});
const publishGql = (client: HttpClient, ctId: string) => client.graphql(PUBLISH_GQL, { ctId });

/** A draft tree minted straight into the catalog, as no charging door mints: a model on a root cluster holding
 * `components` components and `nested` child clusters (each with one component). Price: 500 + 100 × (components +
 * 2 × nested). */
async function unpaidTree(ownerId: number, title: string, components: number, nested = 0): Promise<string> {
  const { db, catalog } = app.services;
  return db.transaction(async (m) => {
    const component = async (i: string) =>
      ({ componentId: (await catalog.createComponent(m, { label: `${title} c${i}`, dataType: 'XdCount', status: 'draft', ownerId })).id }) as const;
    const children: Array<{ componentId: number } | { clusterId: number }> = [];
    for (let i = 0; i < components; i++) children.push(await component(String(i)));
    for (let i = 0; i < nested; i++) {
      const child = await catalog.createCluster(m, { label: `${title} n${i}`, status: 'draft', ownerId, children: [await component(`n${i}`)] });
      children.push({ clusterId: child.id });
    }
    const root = await catalog.createCluster(m, { label: `${title} root`, status: 'draft', ownerId, children });
    return (await catalog.createDataModel(m, { title, rootClusterId: root.id, published: false, ownerId })).ctId;
  });
}

async function balance(userId: number): Promise<number> {
  const [{ b }] = await app.services.db.query('SELECT balance_credits::int AS b FROM wallets WHERE user_id = $1', [userId]);
  return b;
}

async function publishCharges(userId: number): Promise<number[]> {
  const found = await app.services.db.query(
    "SELECT -amount_credits::int AS amount FROM ledger_entries WHERE user_id = $1 AND kind = 'charge' AND reason LIKE 'publish: %' ORDER BY id",
    [userId],
  );
  return found.map((r: { amount: number }) => r.amount);
}

async function unpaidDrafts(userId: number): Promise<{ drafts: number; unpaid: number }> {
  const [row] = await app.services.db.query(
    `SELECT (SELECT count(*) FROM components WHERE owner_id = $1 AND status = 'draft')::int
          + (SELECT count(*) FROM clusters WHERE owner_id = $1 AND status = 'draft')::int
          + (SELECT count(*) FROM data_models WHERE owner_id = $1 AND NOT published)::int AS drafts,
            (SELECT count(*) FROM components WHERE owner_id = $1 AND NOT paid)::int
          + (SELECT count(*) FROM clusters WHERE owner_id = $1 AND NOT paid)::int
          + (SELECT count(*) FROM data_models WHERE owner_id = $1 AND NOT paid)::int AS unpaid`,
    [userId],
  );
  return row;
}

const onlyModel = async (userId: number): Promise<string> => {
  const [{ ct_id }] = await app.services.db.query('SELECT ct_id FROM data_models WHERE owner_id = $1', [userId]);
  return ct_id;
};

describe('publishing a draft tree charges what was never paid', () => {
  jest.setTimeout(180_000);

  it('REST: an unpaid tree is charged by the price table (model with its root 500, each component 100), once', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const dm = await unpaidTree(user.id, 'Unpaid Rest', 2);
    const res = await publishRest(client, dm);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ct_id: dm, published: true });
    expect(await publishCharges(user.id)).toEqual([700]);
    expect(await balance(user.id)).toBe(4_300);
    expect(await unpaidDrafts(user.id)).toEqual({ drafts: 0, unpaid: 0 });
    // Published: a second publish is refused and charges nothing.
    expect((await publishRest(client, dm)).status).toBe(409);
    expect(await publishCharges(user.id)).toEqual([700]);
  });

  it('GraphQL: nested unpaid clusters are charged 100 each with their components', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const dm = await unpaidTree(user.id, 'Unpaid Gql', 1, 2);
    const res = await publishGql(client, dm);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.publishDraftModel).toEqual({ ctId: dm, published: true });
    expect(await publishCharges(user.id)).toEqual([500 + 100 * (1 + 2 * 2)]);
  });

  it('402 before anything changes when the wallet cannot pay (REST and GraphQL)', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 600 });
    const dm = await unpaidTree(user.id, 'Too Dear', 2);
    const before = await unpaidDrafts(user.id);
    expect(before).toEqual({ drafts: 4, unpaid: 4 });
    const rest = await publishRest(client, dm);
    expect(rest.status).toBe(402);
    expect(rest.body).toMatchObject({ error_type: 'insufficient_funds', estimated_cost_credits: 700, balance_credits: 600 });
    const gql = await publishGql(client, dm);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'insufficient_funds', status: 402 });
    expect(await unpaidDrafts(user.id)).toEqual(before);
    expect(await balance(user.id)).toBe(600);
    expect(await publishCharges(user.id)).toEqual([]);
  });

  it('the drafts API charged at creation: its tree publishes for 0 (REST)', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const component = await client.post('/api/v1/dmgen/xd-strings/', { label: 'Paid String' });
    expect(component.status).toBe(201);
    const cluster = await client.post('/api/v1/dmgen/clusters/', { label: 'Paid Cluster', components: [component.body.ct_id] });
    expect(cluster.status).toBe(201);
    const model = await client.post('/api/v1/dmgen/dms/', { title: 'Paid Model', data: cluster.body.ct_id });
    expect(model.status).toBe(201);
    const paid = await balance(user.id);
    expect(paid).toBe(5_000 - 100 - 100 - 500);
    expect((await publishRest(client, model.body.ct_id)).status).toBe(200);
    expect(await balance(user.id)).toBe(paid);
    expect(await publishCharges(user.id)).toEqual([]);
  });

  it('a reuse assembly kept as a draft was paid: it publishes for 0 (GraphQL)', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const reused = (await libraryComponent(app.services, { label: 'Publish Reused' })).ctId;
    const res = await client.post(ASSEMBLE, {
      title: 'Draft Reuse',
      publish: false,
      generate: false,
      data: { label: 'R', components: [{ ct_id: reused }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.published).toBe(false);
    const paid = await balance(user.id);
    const gql = await publishGql(client, res.body.ct_id);
    expect(gql.body.errors).toBeUndefined();
    expect(await balance(user.id)).toBe(paid);
    expect(await publishCharges(user.id)).toEqual([]);
  });

  it('a mixed assembly (its job charged) publishes for 0 (REST)', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const res = await client.post(ASSEMBLE, { ...mixedBody('Draft Mixed'), publish: false });
    expect(res.status).toBe(202);
    expect(await finalJob(client, res.body.job_ct_id)).toMatchObject({ status: 'completed' });
    const paid = await balance(user.id);
    expect(paid).toBe(5_000 - 600);
    expect((await publishRest(client, await onlyModel(user.id))).status).toBe(200);
    expect(await balance(user.id)).toBe(paid);
  });

  it('a CSV upload (its job charged N × 100 + 500) publishes for 0 (GraphQL)', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const form = new FormData();
    form.append('file', new Blob(['Name,Count\nAda,3\n']), 'two.csv');
    const res = await client.request('POST', '/api/v1/uploader/api/data-sources/', form);
    expect(res.status).toBe(202);
    expect(await finalJob(client, res.body.job.ct_id)).toMatchObject({ status: 'completed' });
    const paid = await balance(user.id);
    expect(paid).toBe(5_000 - (2 * 100 + 500));
    const gql = await publishGql(client, await onlyModel(user.id));
    expect(gql.body.errors).toBeUndefined();
    expect(await balance(user.id)).toBe(paid);
    expect(await publishCharges(user.id)).toEqual([]);
  });
});
