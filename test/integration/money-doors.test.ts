import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import type { HttpClient } from '../support/http';
import { finalJob } from '../support/wait';
import { moneyAudit, moneyState } from './money-helpers';

/** Every door that makes a component, cluster or model exist goes through the price table: a CSV upload of N
 * columns is charged N × 100 + 500 credits, held on admission (402 before any work) and captured by its job. */

let app: TestApp;
const users: number[] = [];
beforeAll(async () => {
  app = await startTestApp();
});
afterEach(async () => {
  for (const id of users.splice(0)) {
    const state = await moneyState(app.services.db, id);
    expect([state.ledgerBalance, state.ledgerHeld]).toEqual([state.balance, state.held]);
  }
});
/** The money audit after every test (wallets = Σ ledger, holds, keys within limits). */
afterEach(async () => expect(await moneyAudit(app.services.db)).toEqual([]));
afterAll(() => app.close());

const UPLOAD = '/api/v1/uploader/api/data-sources/';
const THREE_COLUMNS = 'Name,Count,When\nAda,3,2024-01-01\nGrace,5,2024-02-01\n';
const PRICE = 3 * 100 + 500;

async function customer(credits: number) {
  const signed = await signedIn(app.url, app.services, { credits });
  users.push(signed.user.id);
  return signed;
}

function restUpload(client: HttpClient, content: string, filename = 'three.csv') {
  const form = new FormData();
  form.append('file', new Blob([content]), filename);
  return client.request('POST', UPLOAD, form);
}

function graphqlUpload(client: HttpClient, content: string, filename = 'three.csv') {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({
      query: 'mutation ($file: Upload!) { uploadDataSource(file: $file) { estimatedCostCredits columns job { ctId } } }',
      variables: { file: null },
    }),
  );
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob([content]), filename);
  return client.request('POST', '/graphql', form, { 'apollo-require-preflight': 'true' });
}

async function sources(userId: number): Promise<number> {
  const [{ n }] = await app.services.db.query('SELECT count(*)::int AS n FROM data_sources WHERE user_id = $1', [userId]);
  return n;
}

async function jobCharges(jobCtId: string): Promise<number[]> {
  const found = await app.services.db.query(
    "SELECT -l.amount_credits::int AS amount FROM ledger_entries l JOIN jobs j ON j.id = l.job_id WHERE j.ct_id = $1 AND l.kind = 'charge'",
    [jobCtId],
  );
  return found.map((r: { amount: number }) => r.amount);
}

describe('CSV uploads are priced by the price table', () => {
  jest.setTimeout(120_000);

  it('REST: N columns hold N × 100 + 500 on admission (estimate in the 202), the job captures exactly that', async () => {
    const { client, user } = await customer(5_000);
    const res = await restUpload(client, THREE_COLUMNS);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ estimated_cost_credits: PRICE, columns: 3 });
    expect(res.headers.get('x-sdc-estimated-cost-credits')).toBe(String(PRICE));
    expect((await moneyState(app.services.db, user.id)).held).toBe(PRICE);
    const job = await finalJob(client, res.body.job.ct_id);
    expect(job).toMatchObject({ status: 'completed', cost_credits: PRICE });
    expect(await jobCharges(res.body.job.ct_id)).toEqual([PRICE]);
    const state = await moneyState(app.services.db, user.id);
    expect([state.balance, state.held]).toEqual([5_000 - PRICE, 0]);
  });

  it('REST: a wallet one credit short is 402 before any work: no data source, no job, no hold', async () => {
    const { client, user } = await customer(PRICE - 1);
    const res = await restUpload(client, THREE_COLUMNS);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error_type: 'insufficient_funds', estimated_cost_credits: PRICE });
    expect(await sources(user.id)).toBe(0);
    const state = await moneyState(app.services.db, user.id);
    expect([state.balance, state.held, state.holds]).toEqual([PRICE - 1, 0, 0]);
  });

  it('GraphQL: the same price, held and then captured; 402 before any work when short', async () => {
    const { client, user } = await customer(PRICE);
    const res = await graphqlUpload(client, THREE_COLUMNS);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.uploadDataSource).toMatchObject({ estimatedCostCredits: PRICE, columns: 3 });
    const job = await finalJob(client, res.body.data.uploadDataSource.job.ctId);
    expect(job).toMatchObject({ status: 'completed', cost_credits: PRICE });
    expect((await moneyState(app.services.db, user.id)).balance).toBe(0);

    const refused = await graphqlUpload(client, THREE_COLUMNS, 'again.csv');
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'insufficient_funds', status: 402 });
    expect(await sources(user.id)).toBe(1);
  });

  it('an upload whose job fails is not charged: its hold is released', async () => {
    const { client, user } = await customer(5_000);
    // A header with no data rows passes admission (3 columns priced) and fails in the job.
    const res = await restUpload(client, 'Name,Count,When\n');
    expect(res.status).toBe(202);
    const job = await finalJob(client, res.body.job.ct_id);
    expect(job).toMatchObject({ status: 'failed', cost_credits: 0 });
    await app.services.ledger.releaseEndedJobHolds();
    const state = await moneyState(app.services.db, user.id);
    expect([state.balance, state.held]).toEqual([5_000, 0]);
  });
});
