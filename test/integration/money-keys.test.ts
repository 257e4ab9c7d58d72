import { libraryComponent } from '../support/catalog-factories';
import { issueKey, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { startWorkers } from '../../src/jobs/workers';
import { ASSEMBLE, jobsSettled, mixedBody, moneyAudit, moneyState } from './money-helpers';

let app: TestApp;
let reused: string;
beforeAll(async () => {
  app = await startTestApp();
  reused = (await libraryComponent(app.services, { label: 'Rotation Reused' })).ctId;
});
/** The money audit after every test (wallets = Σ ledger, holds, keys within limits). */
afterEach(async () => expect(await moneyAudit(app.services.db)).toEqual([]));
afterAll(() => app.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function deadlocks(): Promise<number> {
  await sleep(1500); // backends flush their statistics at most once a second
  await app.services.db.query('SELECT pg_stat_clear_snapshot()');
  const [row] = await app.services.db.query('SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()');
  return row.n;
}

describe('key management while the key spends', () => {
  jest.setTimeout(300_000);

  it('30 concurrent assemblies while the key is rotated 6 times, revoked, a named and the legacy key created: no 500, no deadlock', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 200_000 });
    const before = await deadlocks();
    let named = await issueKey(client, { name: 'spender', scopes: ['build', 'spend'] });
    let legacy = (await client.post('/api/v1/auth/token/')).body.token as string;
    const reuseBody = (i: number) => ({ title: `Rotation ${i}`, generate: false, data: { label: `Rotation ${i}`, components: [{ ct_id: reused }] } });

    const assemblies = Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        await sleep(i * 40);
        const token = i % 3 === 0 ? legacy : named.key;
        const body = i % 2 === 0 ? reuseBody(i) : mixedBody(`Rotation Mixed ${i}`);
        return (await client.withToken(token).post(ASSEMBLE, body)).status;
      }),
    );
    const management = (async () => {
      const statuses: number[] = [];
      for (let r = 0; r < 6; r++) {
        await sleep(60);
        const rotated = await client.post(`/api/v1/auth/api-tokens/${named.id}/rotate/`);
        statuses.push(rotated.status);
        if (rotated.status === 201 || rotated.status === 200) named = rotated.body;
      }
      const extra = await client.post('/api/v1/auth/api-tokens/', { name: 'second', scopes: ['build', 'spend'] });
      statuses.push(extra.status);
      const regenerated = await client.post('/api/v1/auth/token/');
      statuses.push(regenerated.status);
      legacy = regenerated.body.token;
      statuses.push((await client.post(`/api/v1/auth/api-tokens/${named.id}/revoke/`)).status);
      return statuses;
    })();
    const [spent, managed] = await Promise.all([assemblies, management]);

    expect(managed.filter((s) => s >= 400)).toEqual([]);
    expect(spent.filter((s) => s >= 500)).toEqual([]);
    expect(spent.every((s) => [200, 202, 401, 403].includes(s))).toBe(true);
    expect(spent.filter((s) => s === 200 || s === 202).length).toBeGreaterThan(0);
    await jobsSettled(app.services.db, user.id);
    expect(await deadlocks()).toBe(before);
    const state = await moneyState(app.services.db, user.id);
    expect(state.ledgerBalance).toBe(state.balance);
    expect(state).toMatchObject({ held: 0, ledgerHeld: 0 });
    expect(state.captures + state.releases).toBe(state.holds);
  });

  it('a revoked key’s queued job is not charged: its hold is released and the job fails with key_revoked', async () => {
    const idle = await startTestApp({}, { workers: false });
    try {
      const { client, user } = await signedIn(idle.url, idle.services, { credits: 5000 });
      const key = await issueKey(client, { scopes: ['build', 'spend'] });
      const res = await client.withToken(key.key).post(ASSEMBLE, mixedBody('Revoked Later'));
      expect(res.status).toBe(202);
      expect((await client.get('/api/v1/wallet/')).body).toMatchObject({ balance_credits: 5000, held_credits: 600 });
      expect((await client.post(`/api/v1/auth/api-tokens/${key.id}/revoke/`)).status).toBe(200);
      await startWorkers(idle.services);
      await jobsSettled(idle.services.db, user.id);
      const job = (await client.get(`/api/v1/jobs/${res.body.job_ct_id}/`)).body;
      expect(job).toMatchObject({ status: 'failed', cost_credits: 0 });
      expect(job.error).toMatch(/revoked/);
      expect(await moneyState(idle.services.db, user.id)).toMatchObject({ balance: 5000, held: 0, holds: 1, captures: 0, releases: 1, models: 0 });
      const [row] = await idle.services.db.query('SELECT spent_credits::int AS spent, held_credits::int AS held FROM api_keys WHERE id = $1', [
        key.id,
      ]);
      expect(row).toEqual({ spent: 0, held: 0 });
    } finally {
      await idle.close();
    }
  });
});
