import { loadSettings } from '../../src/config';
import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import type { HttpClient } from '../support/http';
import { ASSEMBLE, GQL_ASSEMBLE, jobsSettled, MIXED_PRICE, mixedBody, mixedInput, moneyAudit, moneyState } from './money-helpers';

let app: TestApp;
// Fifty at once from one caller: above the default per-caller budgets (32 in flight, 32 CPU tasks waiting).
beforeAll(async () => {
  app = await startTestApp({ maxConcurrentRequestsPerCaller: 64, cpu: { ...loadSettings({}).cpu, maxQueuePerCaller: 64 } });
});
/** The money audit after every test (wallets = Σ ledger, holds, keys within limits). */
afterEach(async () => expect(await moneyAudit(app.services.db)).toEqual([]));
afterAll(() => app.close());

/** 50 concurrent mixed assemblies, every other one over GraphQL: the outcome of each as 'accepted' or its error type. */
async function fifty(client: HttpClient, tag: string): Promise<string[]> {
  return Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const title = `${tag} ${i}`;
      if (i % 2 === 0) {
        const res = await client.post(ASSEMBLE, mixedBody(title));
        return res.status === 202 ? 'accepted' : `${res.status} ${res.body.error_type}`;
      }
      const res = await client.graphql(GQL_ASSEMBLE, { input: mixedInput(title) });
      if (res.body.data?.assemble?.__typename === 'AssemblyJob') return 'accepted';
      const ext = res.body.errors?.[0]?.extensions;
      return `${ext?.status} ${ext?.code}`;
    }),
  );
}

const tally = (outcomes: string[]) => outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});

describe('holds on admission', () => {
  jest.setTimeout(300_000);

  it('50 concurrent mixed assemblies (REST and GraphQL) against a wallet that pays for 7: 7 accepted, 43 get 402, 7 models', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 7 * MIXED_PRICE + 599 });
    expect(tally(await fifty(client, 'Wallet'))).toEqual({ accepted: 7, '402 insufficient_funds': 43 });
    await jobsSettled(app.services.db, user.id);
    const state = await moneyState(app.services.db, user.id);
    expect(state).toEqual({ balance: 599, held: 0, ledgerBalance: 599, ledgerHeld: 0, holds: 7, captures: 7, releases: 0, models: 7 });
    const wallet = (await client.get('/api/v1/wallet/')).body;
    expect(wallet).toMatchObject({ balance_credits: 599, held_credits: 0 });
  });

  it('the same against a key limit that pays for 3: 3 accepted, 47 get 403, the key spent exactly its charges', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 100_000 });
    const key = await issueKey(client, { scopes: ['build', 'spend'], spend_limit_credits: 3 * MIXED_PRICE + 599 });
    expect(tally(await fifty(client.withToken(key.key), 'Key'))).toEqual({ accepted: 3, '403 key_spend_limit': 47 });
    await jobsSettled(app.services.db, user.id);
    const state = await moneyState(app.services.db, user.id);
    expect(state).toEqual({
      balance: 100_000 - 3 * MIXED_PRICE,
      held: 0,
      ledgerBalance: 100_000 - 3 * MIXED_PRICE,
      ledgerHeld: 0,
      holds: 3,
      captures: 3,
      releases: 0,
      models: 3,
    });
    const [row] = await app.services.db.query('SELECT spent_credits::int AS spent, held_credits::int AS held FROM api_keys WHERE id = $1', [key.id]);
    expect(row).toEqual({ spent: 3 * MIXED_PRICE, held: 0 });
  });

  it('shows an open hold in the wallet while the job waits, and cost_credits is only what was captured', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 1000 });
    const res = await client.post(ASSEMBLE, mixedBody('Visible Hold'));
    expect(res.status).toBe(202);
    const [hold] = await app.services.db.query("SELECT amount_credits::int AS amount FROM ledger_entries WHERE user_id = $1 AND kind = 'hold'", [
      user.id,
    ]);
    expect(hold).toEqual({ amount: -MIXED_PRICE });
    await jobsSettled(app.services.db, user.id);
    const job = (await client.get(`/api/v1/jobs/${res.body.job_ct_id}/`)).body;
    expect(job).toMatchObject({ status: 'completed', cost_credits: MIXED_PRICE });
    expect((await client.get('/api/v1/wallet/')).body).toMatchObject({ balance_credits: 400, held_credits: 0 });
  });
});
