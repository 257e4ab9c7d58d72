import path from 'node:path';
import type { Job } from '../../src/entities/job.entity';
import { generateTask } from '../../src/jobs/generate.task';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser } from '../support/factories';
import { FIXTURES, STATE_POPULATION_CT_ID } from '../unit/xml/fixtures';
import { moneyAudit } from './money-helpers';

/** A generate_app job whose first attempt captured its hold and was killed: the retry finds the charge made, and
 * when the generation then fails, the job's charge is refunded all the same (a failed job is never paid for). */

const APP_PRICE = 250;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ appDownloadCredits: APP_PRICE }, { workers: false });
  await app.services.packages.importPackage(path.join(FIXTURES, 'sdc4/packages/StatePopulation'));
}, 180_000);
afterEach(async () => expect(await moneyAudit(app.services.db)).toEqual([]));
afterAll(() => app.close());

const ledgerOf = (jobId: number) =>
  app.services.db.query<Array<{ kind: string; amount: number }>>(
    'SELECT kind, amount_credits::int AS amount FROM ledger_entries WHERE job_id = $1 ORDER BY id',
    [jobId],
  );

it('a retried generate_app job that fails refunds the charge an earlier attempt captured, once', async () => {
  const { services } = app;
  const { db } = services;
  const user = await makeUser(services, { credits: 1000 });
  const job = await db.transaction(async (m) => {
    const admitted = await services.jobs.enqueue(m, {
      kind: 'generate_app',
      userId: user.id,
      apiKeyId: null,
      request: { dmCtId: STATE_POPULATION_CT_ID, profile: 'os' },
      dmCtId: STATE_POPULATION_CT_ID,
    });
    await services.ledger.hold({ userId: user.id, apiKeyId: null, jobId: admitted.id, amount: APP_PRICE, reason: 'application download' }, m);
    return admitted;
  });
  const row = (await services.jobs.byCtId(job.ctId)) as Job<'generate_app'>;
  const attempt = () => generateTask.run(services, row, { step: async () => undefined, keepOnFailure: () => undefined });

  // The killed first attempt: it captured the hold under the job's charge key, then died before generating.
  const captured = {
    userId: user.id,
    apiKeyId: null,
    jobId: job.id,
    amount: APP_PRICE,
    reason: `application download: ${STATE_POPULATION_CT_ID} (os)`,
    idempotencyKey: `job:${row.ctId}:app_download`,
  };
  await db.transaction((m) => services.ledger.capture(captured, m));
  // The retry fails for good: the imported model's stored package is gone.
  await db.query("UPDATE data_models SET package_path = package_path || '.lost' WHERE ct_id = $1", [STATE_POPULATION_CT_ID]);
  await expect(attempt()).rejects.toMatchObject({ code: 'not_generated' });
  await expect(attempt()).rejects.toMatchObject({ code: 'not_generated' });

  expect(await ledgerOf(job.id)).toEqual([
    { kind: 'hold', amount: -APP_PRICE },
    { kind: 'capture', amount: APP_PRICE },
    { kind: 'charge', amount: -APP_PRICE },
    { kind: 'refund', amount: APP_PRICE },
  ]);
  const [wallet] = await db.query('SELECT balance_credits::int AS balance FROM wallets WHERE user_id = $1', [user.id]);
  expect(wallet.balance).toBe(1000);
});

it('a job whose worker died on every attempt after capturing: failLostJobs fails it and refunds the charge, once', async () => {
  const { services } = app;
  const { db } = services;
  const user = await makeUser(services, { credits: 1000 });
  const job = await db.transaction(async (m) => {
    const admitted = await services.jobs.enqueue(m, {
      kind: 'generate_app',
      userId: user.id,
      apiKeyId: null,
      request: { dmCtId: STATE_POPULATION_CT_ID, profile: 'os' },
      dmCtId: STATE_POPULATION_CT_ID,
    });
    await services.ledger.hold({ userId: user.id, apiKeyId: null, jobId: admitted.id, amount: APP_PRICE, reason: 'application download' }, m);
    return admitted;
  });
  const row = await services.jobs.byCtId(job.ctId);
  // An attempt captured the hold, then died; so did every retry: the queue gave the task up.
  const captured = {
    userId: user.id,
    apiKeyId: null,
    jobId: job.id,
    amount: APP_PRICE,
    reason: `application download: ${STATE_POPULATION_CT_ID} (os)`,
    idempotencyKey: `job:${row.ctId}:app_download`,
  };
  await db.transaction((m) => services.ledger.capture(captured, m));
  await db.query("UPDATE pgboss.job SET state = 'failed' WHERE id = $1::uuid", [row.taskId]);

  expect(await services.jobs.failLostJobs()).toBe(1);
  expect(await services.jobs.failLostJobs()).toBe(0);
  expect((await services.jobs.byCtId(job.ctId)).status).toBe('failed');
  expect(await ledgerOf(job.id)).toEqual([
    { kind: 'hold', amount: -APP_PRICE },
    { kind: 'capture', amount: APP_PRICE },
    { kind: 'charge', amount: -APP_PRICE },
    { kind: 'refund', amount: APP_PRICE },
  ]);
  const [wallet] = await db.query('SELECT balance_credits::int AS balance, held_credits::int AS held FROM wallets WHERE user_id = $1', [user.id]);
  expect(wallet).toEqual({ balance: 1000, held: 0 });
});
