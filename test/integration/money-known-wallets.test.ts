import { LedgerService } from '../../src/money';
import type { TestApp } from '../support/app';
import { moneyAudit, vaasMoneySuite } from './money-helpers';

/** A batch of charges and refunds is decided on the wallet and keys as this process's last batch left them and
 * written in one statement that writes only if the rows still hold that (src/money/request-holds.ts `applyKnown`,
 * migration 0035); rows changed by anyone else send the batch to the locked path, so nothing is ever decided on
 * rows that are no longer there. */

const suite = vaasMoneySuite();
afterEach(async () => expect(await moneyAudit(suite.app().services.db)).toEqual([]));
const { customer } = suite;
let app: TestApp;
beforeAll(() => {
  app = suite.app();
});

/** Each ledger row of the user, oldest first: its kind, amount and the balance it says it left. */
const rows = async (userId: number) =>
  app.services.db.query(
    'SELECT kind, amount_credits::int AS amount, balance_after_credits::int AS after FROM ledger_entries WHERE user_id = $1 ORDER BY id',
    [userId],
  );

it('charges a wallet it has written before in one statement, no transaction opened', async () => {
  const { userId, keyId } = await customer(10);
  const { requests } = app.services.ledger;
  await requests.charge({ userId, amount: 2, reason: 'first: read on locked rows', apiKeyId: keyId });
  const transactions = jest.spyOn(app.services.db, 'transaction');
  try {
    const second = await requests.charge({ userId, amount: 3, reason: 'second: on the rows as last written', apiKeyId: keyId });
    expect(second).toMatchObject({ chargedCredits: 3, balanceCredits: 5, ledgerEntryId: expect.any(Number) });
    expect(await requests.refund(second, 'failed')).toBe(true);
    expect(transactions).not.toHaveBeenCalled();
  } finally {
    transactions.mockRestore();
  }
  expect(await rows(userId)).toEqual([
    { kind: 'credit', amount: 10, after: 10 },
    { kind: 'charge', amount: -2, after: 8 },
    { kind: 'charge', amount: -3, after: 5 },
    { kind: 'refund', amount: 3, after: 8 },
  ]);
}, 60_000);

it('decides again on locked rows when the wallet changed elsewhere: a credit counts, a debit is not outspent', async () => {
  const { userId } = await customer(5);
  const { requests } = app.services.ledger;
  await requests.charge({ userId, amount: 1, reason: 'primes', apiKeyId: null });
  // Another writer (a job, a top-up, another process) moves the wallet behind this process's back.
  await app.services.ledger.credit(userId, 10, 'top-up elsewhere');
  expect(await requests.charge({ userId, amount: 12, reason: 'fits only with the top-up', apiKeyId: null })).toMatchObject({ balanceCredits: 2 });
  await new LedgerService(app.services.db, { now: () => new Date() }).requests.charge({
    userId,
    amount: 2,
    reason: 'another process',
    apiKeyId: null,
  });
  await expect(requests.charge({ userId, amount: 1, reason: 'nothing left', apiKeyId: null })).rejects.toMatchObject({ status: 402 });
  expect((await rows(userId)).map((r: { after: number }) => r.after)).toEqual([5, 4, 14, 2, 0]);
}, 60_000);

it("refuses a charge past a key's limit lowered elsewhere, and one by a key revoked elsewhere", async () => {
  const { userId, client, keyId } = await customer(100, { spend_limit_credits: 50 });
  const { requests } = app.services.ledger;
  await requests.charge({ userId, amount: 10, reason: 'primes', apiKeyId: keyId });
  await app.services.db.query('UPDATE api_keys SET spend_limit_credits = 12 WHERE id = $1', [keyId]);
  await expect(requests.charge({ userId, amount: 5, reason: 'past the new limit', apiKeyId: keyId })).rejects.toMatchObject({ status: 403 });
  await requests.charge({ userId, amount: 2, reason: 'within it', apiKeyId: keyId });
  expect((await client.post(`/api/v1/auth/api-tokens/${keyId}/revoke/`)).status).toBe(200);
  await expect(requests.charge({ userId, amount: 1, reason: 'by a revoked key', apiKeyId: keyId })).rejects.toMatchObject({ status: 403 });
  expect((await rows(userId)).map((r: { amount: number }) => r.amount)).toEqual([100, -10, -2]);
}, 60_000);

it('two processes charging one wallet at once take exactly what it holds, each charge once', async () => {
  const { userId, keyId } = await customer(60);
  const processes = [app.services.ledger, new LedgerService(app.services.db, { now: () => new Date() })];
  // Both have written the wallet once, so both decide on what they last saw, and each sees the other's writes.
  for (const ledger of processes) await ledger.requests.charge({ userId, amount: 1, reason: 'primes', apiKeyId: keyId });
  const settled = await Promise.allSettled(
    Array.from({ length: 80 }, (_, i) => processes[i % 2].requests.charge({ userId, amount: 1, reason: `race ${i}`, apiKeyId: keyId })),
  );
  const statuses = settled.map((s) => (s.status === 'fulfilled' ? 200 : (s.reason as { status: number }).status));
  expect([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 402).length]).toEqual([58, 22]);
  const balances = (await rows(userId)).map((r: { after: number }) => r.after);
  // Every row's balance is one less than the one before it: no charge was decided on a balance another had spent.
  expect(balances).toEqual(Array.from({ length: 61 }, (_, i) => 60 - i));
}, 60_000);
