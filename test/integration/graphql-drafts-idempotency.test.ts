import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { moneyState } from './money-helpers';

/** createDraftCluster and createDraftModel charge (100 and 500 credits), so a client retrying one after a timeout
 * sends the same idempotencyKey and must not pay twice, as REST's Idempotency-Key on POST clusters/ and dms/. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { workers: false });
});
afterAll(() => app.close());

const CLUSTER = `mutation ($input: DraftClusterInput!, $key: String) { createDraftCluster(input: $input, idempotencyKey: $key) { ctId label created } }`;
const MODEL = `mutation ($input: DraftModelInput!, $key: String) { createDraftModel(input: $input, idempotencyKey: $key) { ctId title created } }`;

async function charges(userId: number): Promise<number[]> {
  const found = await app.services.db.query(
    "SELECT -amount_credits::int AS amount FROM ledger_entries WHERE user_id = $1 AND kind = 'charge' ORDER BY id",
    [userId],
  );
  return found.map((row: { amount: number }) => row.amount);
}

describe('idempotencyKey on the charging drafts mutations', () => {
  it('a retried createDraftCluster answers the first cluster and charges once; another key charges again', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 1_000 });
    const first = await client.graphql(CLUSTER, { input: { label: 'Vitals' }, key: 'gql-cluster-1' });
    const retry = await client.graphql(CLUSTER, { input: { label: 'Vitals' }, key: 'gql-cluster-1' });
    expect(first.body.errors).toBeUndefined();
    expect(retry.body).toEqual(first.body);
    expect(await charges(user.id)).toEqual([100]);

    const reused = await client.graphql(CLUSTER, { input: { label: 'Other' }, key: 'gql-cluster-1' });
    expect(reused.status).toBe(200);
    expect(reused.body.errors[0].extensions).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    expect(await charges(user.id)).toEqual([100]);

    const again = await client.graphql(CLUSTER, { input: { label: 'Vitals' }, key: 'gql-cluster-2' });
    expect(again.body.data.createDraftCluster.ctId).not.toBe(first.body.data.createDraftCluster.ctId);
    expect(await charges(user.id)).toEqual([100, 100]);
    const state = await moneyState(app.services.db, user.id);
    expect([state.balance, state.ledgerBalance]).toEqual([800, 800]);
  });

  it('a retried createDraftModel answers the first model and charges once; another key charges again', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 2_000 });
    const root = (await client.graphql(CLUSTER, { input: { label: 'Root' } })).body.data.createDraftCluster.ctId as string;
    const input = { title: 'Vitals model', data: root };
    const first = await client.graphql(MODEL, { input, key: 'gql-model-1' });
    const retry = await client.graphql(MODEL, { input, key: 'gql-model-1' });
    expect(first.body.errors).toBeUndefined();
    expect(retry.body).toEqual(first.body);
    expect(await charges(user.id)).toEqual([100, 500]);

    const reused = await client.graphql(MODEL, { input: { ...input, title: 'Other model' }, key: 'gql-model-1' });
    expect(reused.body.errors[0].extensions.code).toBe('idempotency_key_reused');

    const again = await client.graphql(MODEL, { input, key: 'gql-model-2' });
    expect(again.body.data.createDraftModel.ctId).not.toBe(first.body.data.createDraftModel.ctId);
    expect(await charges(user.id)).toEqual([100, 500, 500]);
    const state = await moneyState(app.services.db, user.id);
    expect([state.balance, state.ledgerBalance, state.models]).toEqual([900, 900, 2]);
  });
});
