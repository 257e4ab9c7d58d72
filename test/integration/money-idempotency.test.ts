import { libraryComponent } from '../support/catalog-factories';
import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { fingerprintOf } from '../../src/http/idempotency';
import { currentClaim, decodeResult, recordOutcome } from '../../src/money';
import { ASSEMBLE, jobsSettled, mixedBody, mixedInput, moneyAudit, moneyState } from './money-helpers';

let app: TestApp;
let reused: string;
beforeAll(async () => {
  app = await startTestApp();
  reused = (await libraryComponent(app.services, { label: 'Idempotent Reused' })).ctId;
});
/** The money audit after every test (wallets = Σ ledger, holds, keys within limits). */
afterEach(async () => expect(await moneyAudit(app.services.db)).toEqual([]));
afterAll(() => app.close());

/** The fingerprint the REST router takes of a JSON POST without params or query. */
const fingerprintOfBody = (body: unknown) => fingerprintOf({ params: {}, query: {}, body });

const reuseBody = (title: string) => ({ title, generate: false, data: { label: `${title} Data`, components: [{ ct_id: reused }] } });

/** What the user was made to pay for: the holds of jobs (a mixed assembly's), and charges of no job. A job's capture
 * writes a charge of that job, which is its hold's payment, not a second one: counting it too made the answer depend on
 * whether the job had run yet. A request's own hold (the reuse path's, job_id null) is not counted: its capture is
 * the charge. */
async function charges(userId: number): Promise<number> {
  const [{ n }] = await app.services.db.query(
    "SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND ((kind = 'charge' AND job_id IS NULL) OR (kind = 'hold' AND job_id IS NOT NULL))",
    [userId],
  );
  return n;
}

describe('Idempotency-Key', () => {
  jest.setTimeout(120_000);

  it('a retried assemble with the same key charges once and answers the same body; a different body is 422', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const headers = { 'Idempotency-Key': 'assemble-0001' };
    const first = await client.post(ASSEMBLE, reuseBody('Once'), headers);
    expect(first.status).toBe(200);
    const retry = await client.post(ASSEMBLE, reuseBody('Once'), headers);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await charges(user.id)).toBe(1);
    expect((await client.get('/api/v1/wallet/')).body.balance_credits).toBe(4500);

    const other = await client.post(ASSEMBLE, reuseBody('Another'), headers);
    expect(other.status).toBe(422);
    expect(other.body.error_type).toBe('idempotency_key_reused');
    expect(await charges(user.id)).toBe(1);
  });

  it('over GraphQL the idempotencyKey argument replays the first result and charges once; other arguments are 422', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const mutation = `mutation ($input: AssemblyInput!, $key: String) { assemble(input: $input, idempotencyKey: $key) {
      __typename ... on AssemblyJob { jobCtId job { ctId status created } } ... on BuiltModel { ctId title }
    } }`;
    const first = await client.graphql(mutation, { input: mixedInput('Gql Once'), key: 'gql-assemble-1' });
    const retry = await client.graphql(mutation, { input: mixedInput('Gql Once'), key: 'gql-assemble-1' });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.assemble.__typename).toBe('AssemblyJob');
    expect(retry.body).toEqual(first.body);
    expect(await charges(user.id)).toBe(1);

    const other = await client.graphql(mutation, { input: mixedInput('Gql Other'), key: 'gql-assemble-1' });
    expect(other.body.errors[0].extensions.code).toBe('idempotency_key_reused');
    expect(await charges(user.id)).toBe(1);
    // Once the job has run and captured its hold, the user has still paid once.
    await jobsSettled(app.services.db, user.id);
    expect(await charges(user.id)).toBe(1);
  });

  it('concurrent duplicates wait for the first: one charge, one model, the same answer for all', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const headers = { 'Idempotency-Key': 'concurrent-1' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.post(ASSEMBLE, reuseBody('Concurrent'), headers)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    expect(await charges(user.id)).toBe(1);
    const [{ models }] = await app.services.db.query('SELECT count(*)::int AS models FROM data_models WHERE owner_id = $1', [user.id]);
    expect(models).toBe(1);
  });

  it('a retried mixed assembly answers the same job; keys are per user; no key means no replay', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5000 });
    const headers = { 'Idempotency-Key': 'mixed-1' };
    const first = await client.post(ASSEMBLE, mixedBody('Mixed Once'), headers);
    const retry = await client.post(ASSEMBLE, mixedBody('Mixed Once'), headers);
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.body.job_ct_id).toBe(first.body.job_ct_id);
    const other = await signedIn(app.url, app.services, { credits: 5000 });
    const theirs = await other.client.post(ASSEMBLE, mixedBody('Mixed Once'), headers);
    expect(theirs.status).toBe(202);
    expect(theirs.body.job_ct_id).not.toBe(first.body.job_ct_id);
    const [{ jobs }] = await app.services.db.query('SELECT count(*)::int AS jobs FROM jobs WHERE user_id = $1', [user.id]);
    expect(jobs).toBe(1);
  });

  it('an error frees the key: a 402 retried after a top-up runs again', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 100 });
    const headers = { 'Idempotency-Key': 'broke-then-paid' };
    expect((await client.post(ASSEMBLE, reuseBody('Broke'), headers)).status).toBe(402);
    await app.services.ledger.credit(user.id, 1000, 'top-up');
    expect((await client.post(ASSEMBLE, reuseBody('Broke'), headers)).status).toBe(200);
  });

  it('a retried data-source upload (a new multipart boundary) answers the same draft and job', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const send = () => {
      const form = new FormData();
      form.append('file', new Blob(['Name,Count\nAda,3\n']), 'retry.csv');
      return client.request('POST', '/api/v1/uploader/api/data-sources/', form, { 'Idempotency-Key': 'upload-1' });
    };
    const first = await send();
    const retry = await send();
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.body.data_source_ct_id).toBe(first.body.data_source_ct_id);
    expect(retry.body.job.ct_id).toBe(first.body.job.ct_id);
  });

  it('refuses a malformed key with 400', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 5000 });
    const res = await client.post(ASSEMBLE, reuseBody('Bad Key'), { 'Idempotency-Key': 'x'.repeat(300) });
    expect(res.status).toBe(400);
  });
});

describe('Idempotency-Key outcomes committed with the charge', () => {
  jest.setTimeout(120_000);

  /** What a crash between the charging commit and the stored answer leaves: the outcome, no answer. */
  const loseAnswer = (userId: number, key: string) =>
    app.services.db.query('UPDATE idempotency_keys SET status = NULL, response = NULL WHERE user_id = $1 AND key = $2 RETURNING outcome', [
      userId,
      key,
    ]);

  async function audit(userId: number) {
    const state = await moneyState(app.services.db, userId);
    expect([state.ledgerBalance, state.ledgerHeld]).toEqual([state.balance, state.held]);
    return state;
  }

  it('each charging door records its outcome with its charge; a retry whose answer was lost replays it', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 10_000 });
    const doors: Array<{ key: string; send: () => Promise<{ status: number; body: any; headers: Headers }>; id: (body: any) => string }> = [
      { key: 'lost-reuse', send: () => client.post(ASSEMBLE, reuseBody('Lost Reuse'), { 'Idempotency-Key': 'lost-reuse' }), id: (b) => b.ct_id },
      { key: 'lost-mixed', send: () => client.post(ASSEMBLE, mixedBody('Lost Mixed'), { 'Idempotency-Key': 'lost-mixed' }), id: (b) => b.job_ct_id },
      {
        key: 'lost-cluster',
        send: () => client.post('/api/v1/dmgen/clusters/', { label: 'Lost Cluster' }, { 'Idempotency-Key': 'lost-cluster' }),
        id: (b) => b.ct_id,
      },
      {
        key: 'lost-upload',
        send: () => {
          const form = new FormData();
          form.append('file', new Blob(['Name,Count\nAda,3\n']), 'lost.csv');
          return client.request('POST', '/api/v1/uploader/api/data-sources/', form, { 'Idempotency-Key': 'lost-upload' });
        },
        id: (b) => b.job.ct_id,
      },
    ];
    for (const door of doors) {
      const first = await door.send();
      expect([door.key, first.status]).toEqual([door.key, expect.any(Number)]);
      expect(first.status).toBeLessThan(300);
      // A queued job (mixed, upload) finishes first: what it captures is not the retry's doing.
      await jobsSettled(app.services.db, user.id);
      const before = await audit(user.id);
      const [[row]] = await loseAnswer(user.id, door.key);
      expect(row.outcome).toMatchObject({ charged: expect.any(Number), resource: { id: door.id(first.body) } });
      const retry = await door.send();
      expect(retry.status).toBe(first.status);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(door.id(retry.body)).toBe(door.id(first.body));
      const after = await audit(user.id);
      expect({ door: door.key, balance: after.balance, held: after.held, models: after.models }).toEqual({
        door: door.key,
        balance: before.balance,
        held: before.held,
        models: before.models,
      });
    }
  });

  it('over GraphQL, a retry whose answer was lost replays the committed draft and charges once', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 1_000 });
    const mutation = `mutation ($input: DraftClusterInput!, $key: String) { createDraftCluster(input: $input, idempotencyKey: $key) { ctId label } }`;
    const first = await client.graphql(mutation, { input: { label: 'Gql Lost' }, key: 'gql-lost-1' });
    expect(first.body.errors).toBeUndefined();
    await loseAnswer(user.id, 'gql-lost-1');
    const retry = await client.graphql(mutation, { input: { label: 'Gql Lost' }, key: 'gql-lost-1' });
    expect(retry.body).toEqual(first.body);
    expect((await audit(user.id)).balance).toBe(900);
  });

  it('an error after the charge committed answers the commit instead and keeps the key; an error before frees it', async () => {
    const user = (await signedIn(app.url, app.services, { credits: 1_000 })).user;
    const scope = { userId: user.id, key: 'post-commit-error', operation: 'test charge' };
    let runs = 0;
    const chargeThenFail = async () => {
      runs++;
      const replay = currentClaim()?.replay;
      if (replay) return { status: 200, body: decodeResult<{ ledger: number }>(replay.result) };
      // The money module's API for "charge N credits for this request, with idempotency".
      await app.services.db.transaction((manager) =>
        app.services.ledger.chargeRequest(
          { userId: user.id, apiKeyId: null, amount: 7, reason: 'test charge', resource: { type: 'test', id: 'x' }, result: { ledger: 7 } },
          manager,
        ),
      );
      throw new Error('the pool timed out reading the wallet after the commit');
    };
    const answer = await app.services.idempotency.once(scope, 'fp', chargeThenFail);
    expect(answer).toMatchObject({ status: 200, body: { ledger: 7 } });
    expect(runs).toBe(2);
    expect((await app.services.idempotency.once(scope, 'fp', chargeThenFail)).headers).toMatchObject({ 'Idempotent-Replayed': 'true' });
    expect(runs).toBe(2);
    expect((await audit(user.id)).balance).toBe(993);

    const failBefore = { ...scope, key: 'pre-commit-error' };
    await expect(app.services.idempotency.once(failBefore, 'fp', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    const [{ n }] = await app.services.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = $1 AND key = $2', [
      user.id,
      failBefore.key,
    ]);
    expect(n).toBe(0);
  });

  it('a claim taken over after its lease: the old attempt can no longer commit under the key, the new one charges once', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const headers = { 'Idempotency-Key': 'taken-over' };
    // A first attempt that claimed the key and died before committing, longer ago than the lease.
    await app.services.db.query(
      `INSERT INTO idempotency_keys (user_id, key, operation, fingerprint, claim_token, claimed_at)
       SELECT $1, $2, 'post /api/v1/dmgen/assemble/', fingerprint, 'dead-attempt', now() - interval '1 hour'
         FROM (SELECT $3::text AS fingerprint) f`,
      [user.id, 'taken-over', fingerprintOfBody(reuseBody('Taken Over'))],
    );
    const res = await client.post(ASSEMBLE, reuseBody('Taken Over'), headers);
    expect(res.status).toBe(200);
    const dead = { userId: user.id, key: 'taken-over', token: 'dead-attempt', replay: null };
    const late = app.services.db.transaction((m) =>
      recordOutcome(m, { charged: 500, ledgerEntryId: null, resource: { type: 'model', id: 'late' }, result: {} }, dead),
    );
    await expect(late).rejects.toMatchObject({ status: 409, code: 'idempotency_key_in_use' });
    expect(await charges(user.id)).toBe(1);
  });
});
