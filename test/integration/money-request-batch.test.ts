import { loadSettings } from '../../src/config';
import type { RequestHoldRequest } from '../../src/money';
import type { TestApp } from '../support/app';
import { issueKey } from '../support/factories';
import { statePopulationXml } from '../unit/xml/fixtures';
import { moneyAudit, moneyState, vaasMoneySuite } from './money-helpers';

/** Request holds commit in groups per wallet: what arrives while a transaction of the wallet is in flight is
 * applied by its next transaction, each member decided in arrival order as a lone one would be, and no member's
 * refusal or failure touches the others. */

// Forty at once from one caller: above the default per-caller budgets (32 in flight, 32 CPU tasks waiting).
const suite = vaasMoneySuite({ maxConcurrentRequestsPerCaller: 64, cpu: { ...loadSettings({}).cpu, maxQueuePerCaller: 64 } });

afterEach(async () => expect(await moneyAudit(suite.app().services.db)).toEqual([]));
const { customer } = suite;
let app: TestApp;
beforeAll(() => {
  app = suite.app();
});

const keyMoney = async (keyId: number) =>
  (await app.services.db.query('SELECT spent_credits::int AS spent, held_credits::int AS held FROM api_keys WHERE id = $1', [keyId]))[0];

/** The transaction (xmin) that wrote each hold row, by reason. */
async function holdTransactions(userId: number): Promise<Record<string, string>> {
  const rows = await app.services.db.query("SELECT reason, xmin::text AS tx FROM ledger_entries WHERE user_id = $1 AND kind = 'hold'", [userId]);
  return Object.fromEntries(rows.map((r: { reason: string; tx: string }) => [r.reason, r.tx]));
}

/** A first hold starts a transaction of the wallet; `requests`, made in the same tick, wait and form the next batch. */
function batchAfterPilot(userId: number, requests: RequestHoldRequest[]) {
  const { requests: holds } = app.services.ledger;
  const pilot = holds.hold({ userId, amount: 1, reason: 'pilot', apiKeyId: null });
  return Promise.all([pilot, Promise.allSettled(requests.map((r) => holds.hold(r)))]);
}

describe('forty concurrent validations against a wallet that covers twenty-five', () => {
  it('charge exactly twenty-five; the others are 402; the ledger, the wallet and the key agree', async () => {
    const { userId, key, keyId } = await customer(25);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${app.url}/api/v1/vaas/validate/?mode=strict&package=false`, {
          method: 'POST',
          headers: { authorization: `Token ${key}`, 'content-type': 'application/xml' },
          body: statePopulationXml(),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 402).length]).toEqual([25, 15]);
    const state = await moneyState(app.services.db, userId);
    // Charged on admission, group-committed: one charge row each, no hold.
    expect([state.balance, state.held, state.holds, state.captures, state.releases]).toEqual([0, 0, 0, 0, 0]);
    const [charged] = await app.services.db.query(
      "SELECT count(*)::int AS n, -sum(amount_credits)::int AS sum FROM ledger_entries WHERE user_id = $1 AND kind = 'charge'",
      [userId],
    );
    expect(charged).toEqual({ n: 25, sum: 25 });
    expect(await keyMoney(keyId)).toEqual({ spent: 25, held: 0 });
  }, 120_000);
});

describe('one batch of holds', () => {
  it('is decided in arrival order: a member refused for funds is 402 with the balance it found, the others are held', async () => {
    const { userId } = await customer(6);
    const [, settled] = await batchAfterPilot(userId, [
      { userId, amount: 2, reason: 'first', apiKeyId: null },
      { userId, amount: 4, reason: 'too much', apiKeyId: null },
      { userId, amount: 3, reason: 'fits', apiKeyId: null },
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // After the pilot (1) and the first (2), 3 were available: too little for 4, enough for the third.
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ status: 402, code: 'insufficient_funds', fields: { balance_credits: 3 } });
    const tx = await holdTransactions(userId);
    expect([tx.first === tx.fits, tx.first === tx.pilot]).toEqual([true, false]);
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 6, held: 6, holds: 3 });
  }, 60_000);

  it('a member refused by its key limit is 403; the members of another key and of none are held', async () => {
    const { userId, client, keyId: limited } = await customer(100, { spend_limit_credits: 3 });
    const other = Number((await issueKey(client)).id);
    const [, settled] = await batchAfterPilot(userId, [
      { userId, amount: 2, reason: 'limited fits', apiKeyId: limited },
      { userId, amount: 2, reason: 'limited over', apiKeyId: limited },
      { userId, amount: 5, reason: 'other key', apiKeyId: other },
      { userId, amount: 5, reason: 'no key', apiKeyId: null },
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ status: 403, code: 'key_spend_limit' });
    expect([await keyMoney(limited), await keyMoney(other)]).toEqual([
      { spent: 0, held: 2 },
      { spent: 0, held: 5 },
    ]);
    const tx = await holdTransactions(userId);
    expect(new Set([tx['limited fits'], tx['other key'], tx['no key']]).size).toBe(1);

    // Their captures and releases, again one batch: each settles its own hold and key.
    const holds = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const { requests } = app.services.ledger;
    const [captured, released, capturedOther] = await Promise.all([
      requests.capture(holds[0], 1, 'limited'),
      requests.release(holds[1], 'other key'),
      requests.capture(holds[2], 5, 'no key'),
    ]);
    expect([captured.capturedCredits, released, capturedOther.capturedCredits]).toEqual([1, true, 5]);
    expect([await keyMoney(limited), await keyMoney(other)]).toEqual([
      { spent: 1, held: 0 },
      { spent: 0, held: 0 },
    ]);
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 94, held: 1 });
  }, 60_000);

  it('a member whose write fails is retried alone: it fails, the others are held', async () => {
    const { userId } = await customer(10);
    const [, settled] = await batchAfterPilot(userId, [
      { userId, amount: 2, reason: 'before', apiKeyId: null },
      // Postgres text cannot hold NUL: this member's row fails the batch's insert.
      { userId, amount: 2, reason: 'bad\u0000row', apiKeyId: null },
      { userId, amount: 2, reason: 'after', apiKeyId: null },
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const tx = await holdTransactions(userId);
    expect(tx.before === tx.after).toBe(false);
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 10, held: 5, holds: 3 });
    const held = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(await Promise.all(held.map((h) => app.services.ledger.requests.capture(h, 2, 'done')))).toMatchObject([
      { capturedCredits: 2 },
      { capturedCredits: 2 },
    ]);
  }, 60_000);
});
