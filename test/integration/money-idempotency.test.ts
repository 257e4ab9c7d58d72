import { libraryComponent } from '../support/catalog-factories';
import { signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { ASSEMBLE, mixedBody, mixedInput } from './money-helpers';

let app: TestApp;
let reused: string;
beforeAll(async () => {
  app = await startTestApp();
  reused = (await libraryComponent(app.services, { label: 'Idempotent Reused' })).ctId;
});
afterAll(() => app.close());

const reuseBody = (title: string) => ({ title, generate: false, data: { label: `${title} Data`, components: [{ ct_id: reused }] } });

async function charges(userId: number): Promise<number> {
  const [{ n }] = await app.services.db.query("SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind IN ('charge', 'hold')", [
    userId,
  ]);
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
    const { client } = await signedIn(app.url, app.services);
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
