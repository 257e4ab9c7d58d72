import { LedgerService } from '../../src/money';
import type { TestApp } from '../support/app';
import { statePopulationXml } from '../unit/xml/fixtures';
import { moneyState, vaasMoneySuite } from './money-helpers';

/** VaaS pays before the CPU work: a validation without a signature (its price fixed) is charged on admission, one
 * ledger row; a sign request holds its whole price and captures what was earned after the work, anything else is
 * released; a hold whose process died is released by the maintenance sweep. */

const suite = vaasMoneySuite();
const { customer } = suite;
let app: TestApp;
beforeAll(() => {
  app = suite.app();
});

async function post(pathAndQuery: string, xml: string, key: string) {
  const res = await fetch(app.url + pathAndQuery, {
    method: 'POST',
    headers: { authorization: `Token ${key}`, 'content-type': 'application/xml' },
    body: xml,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function count(sql: string, values: unknown[]): Promise<number> {
  return Number((await app.services.db.query(sql, values))[0].n);
}
const entries = (userId: number, kind: string) => count('SELECT count(*) AS n FROM ledger_entries WHERE user_id = $1 AND kind = $2', [userId, kind]);
const packages = (userId: number) => count('SELECT count(*) AS n FROM vaas_packages WHERE user_id = $1', [userId]);

/** A sweeper's clock a second ahead of the service's. With a TTL of 0 the sweep's cutoff is its own now, in whole
 * milliseconds, while a hold is stamped by Postgres in microseconds: a hold committed within the same millisecond as
 * the sweep began (holds-only batches skip the WAL flush, so this happens) fell after the cutoff and was not swept. */
const secondAhead = () => ({ now: () => new Date(app.clock.now().getTime() + 1000) });

describe('ten concurrent validations against five credits', () => {
  it('admit exactly five: they do the work and are charged; the others are 402 before any work', async () => {
    const { userId, key } = await customer(5);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post('/api/v1/vaas/validate/?mode=strict&package=true', statePopulationXml(), key)),
    );

    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 402, 402, 402, 402, 402]);
    for (const refused of answers.filter((a) => a.status === 402)) {
      expect(refused.body).toMatchObject({ error_type: 'insufficient_funds', estimated_cost: '0.001' });
      expect(refused.headers.get('x-sdc-estimated-cost')).toBe('0.001');
    }
    for (const done of answers.filter((a) => a.status === 200)) expect(done.headers.get('x-package-url')).toBeTruthy();
    // Only the admitted five are charged (on admission, no hold) and do the work (one package each).
    const state = await moneyState(app.services.db, userId);
    expect([state.balance, state.held, state.holds, state.captures, state.releases]).toEqual([0, 0, 0, 0, 0]);
    expect([await entries(userId, 'charge'), await packages(userId)]).toEqual([5, 5]);
  }, 120_000);

  it('a key whose spend limit covers two admits two and answers 403 to the others, before any work', async () => {
    const { userId, key, keyId } = await customer(100, { spend_limit_credits: 2 });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post('/api/v1/vaas/validate/?mode=strict&package=true', statePopulationXml(), key)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 403, 403]);
    expect(answers.find((a) => a.status === 403)!.body).toMatchObject({ error_type: 'key_spend_limit' });
    const [apiKey] = await app.services.db.query('SELECT spent_credits::int AS spent, held_credits::int AS held FROM api_keys WHERE id = $1', [
      keyId,
    ]);
    expect(apiKey).toEqual({ spent: 2, held: 0 });
    expect([await entries(userId, 'hold'), await entries(userId, 'charge'), await packages(userId)]).toEqual([0, 2, 2]);
  }, 60_000);
});

describe('a sign request', () => {
  it('of a valid instance captures validation and signature', async () => {
    const { userId, key } = await customer(6);
    const res = await post('/api/v1/vaas/validate/sign/?recover=false&package=false', statePopulationXml(), key);
    expect([res.status, res.body.signed, res.headers.get('x-sdc-estimated-cost-credits')]).toEqual([200, true, '6']);
    const state = await moneyState(app.services.db, userId);
    expect([state.balance, state.held, state.holds, state.captures]).toEqual([0, 0, 1, 1]);
  }, 60_000);

  it('of an invalid instance holds both prices and captures only the validation', async () => {
    const { userId, key } = await customer(6);
    const broken = statePopulationXml().replace('<xdcount-value>86</xdcount-value>', '<xdcount-value>many</xdcount-value>');
    const res = await post('/api/v1/vaas/validate/sign/?recover=false&package=false', broken, key);
    expect([res.status, res.body.signed]).toEqual([200, false]);
    const rows = await app.services.db.query(
      "SELECT kind, amount_credits::int AS amount FROM ledger_entries WHERE user_id = $1 AND kind <> 'credit' ORDER BY id",
      [userId],
    );
    expect(rows).toEqual([
      { kind: 'hold', amount: -6 },
      { kind: 'capture', amount: 6 },
      { kind: 'charge', amount: -1 },
    ]);
    expect((await moneyState(app.services.db, userId)).balance).toBe(5);
  }, 60_000);

  it('that cannot be paid in full is 402 up front, even though a validation alone would fit', async () => {
    const { userId, key } = await customer(5);
    const res = await post('/api/v1/vaas/validate/sign/?recover=false&package=true', statePopulationXml(), key);
    expect(res.status).toBe(402);
    expect([await entries(userId, 'hold'), await packages(userId)]).toEqual([0, 0]);
  }, 60_000);
});

describe('a request charged on admission', () => {
  it('is refused as a hold is (403 key limit, 402 funds), charged in one row and refunded at most once', async () => {
    const { userId, keyId } = await customer(3, { spend_limit_credits: 2 });
    const { requests } = app.services.ledger;
    await expect(requests.charge({ userId, amount: 3, reason: 'over the limit', apiKeyId: keyId })).rejects.toMatchObject({ status: 403 });
    await expect(requests.charge({ userId, amount: 4, reason: 'over the funds', apiKeyId: null })).rejects.toMatchObject({ status: 402 });
    const charge = await requests.charge({ userId, amount: 2, reason: 'vaas validate: refunded', apiKeyId: keyId });
    expect(charge).toMatchObject({ chargedCredits: 2, balanceCredits: 1, ledgerEntryId: expect.any(Number) });
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 1, held: 0, holds: 0 });
    expect(await requests.refund(charge, 'failed')).toBe(true);
    await expect(requests.refund(charge, 'again')).rejects.toBeTruthy();
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 3, held: 0 });
    expect([await entries(userId, 'charge'), await entries(userId, 'refund')]).toEqual([1, 1]);
    const [apiKey] = await app.services.db.query('SELECT spent_credits::int AS spent, held_credits::int AS held FROM api_keys WHERE id = $1', [
      keyId,
    ]);
    expect(apiKey).toEqual({ spent: 0, held: 0 });
  }, 60_000);
});

describe('request holds in the ledger', () => {
  it('close exactly once when a capture and a release race', async () => {
    const { userId } = await customer(10);
    const { ledger } = app.services;
    for (let i = 0; i < 5; i++) {
      const hold = await ledger.requests.hold({ userId, amount: 2, reason: 'race', apiKeyId: null });
      const [captured, released] = await Promise.allSettled([ledger.requests.capture(hold, 2, 'race'), ledger.requests.release(hold, 'race')]);
      const capturedFirst = captured.status === 'fulfilled' && !captured.value.alreadyClosed;
      const releasedFirst = released.status === 'fulfilled' && released.value;
      expect(capturedFirst !== releasedFirst).toBe(true);
    }
    const state = await moneyState(app.services.db, userId);
    expect([state.held, state.holds, state.captures + state.releases]).toEqual([0, 5, 5]);
  }, 60_000);

  it('a key revoked between hold and capture is never charged: the capture refuses, the release returns the hold', async () => {
    const { userId, keyId } = await customer(10);
    const hold = await app.services.ledger.requests.hold({ userId, amount: 3, reason: 'revoked', apiKeyId: keyId });
    await app.services.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [keyId]);
    await expect(app.services.ledger.requests.capture(hold, 3, 'revoked')).rejects.toMatchObject({ status: 403, code: 'key_revoked' });
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 10, held: 3, captures: 0 });
    expect(await app.services.ledger.requests.release(hold, 'revoked')).toBe(true);
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 10, held: 0, releases: 1 });
    expect(await entries(userId, 'charge')).toBe(0);
  }, 60_000);

  it('a hold left by a crashed request is released by the sweep once past the TTL, and cannot be captured after', async () => {
    const { userId, keyId } = await customer(10);
    const hold = await app.services.ledger.requests.hold({ userId, amount: 6, reason: 'vaas: crashed', apiKeyId: keyId });
    // The request's process dies here: no capture, no release.
    await app.services.ledger.releaseEndedJobHolds();
    expect(await moneyState(app.services.db, userId)).toMatchObject({ held: 6, releases: 0 });

    const afterTtl = new LedgerService(app.services.db, secondAhead(), 0);
    await afterTtl.releaseEndedJobHolds();
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 10, held: 0, holds: 1, releases: 1 });
    const [apiKey] = await app.services.db.query('SELECT held_credits::int AS held FROM api_keys WHERE id = $1', [keyId]);
    expect(apiKey.held).toBe(0);
    await expect(app.services.ledger.requests.capture(hold, 6, 'late')).rejects.toMatchObject({ status: 409, code: 'hold_released' });
    expect(await app.services.ledger.requests.release(hold, 'again')).toBe(false);
  }, 60_000);

  it('the sweep reads only the holds made since its mark, which follows the newest hold it has seen', async () => {
    const mark = async () =>
      (await app.services.db.query("SELECT examined_before AS at FROM ledger_sweep_marks WHERE sweep = 'request_holds'"))[0].at as Date;
    const { userId, keyId } = await customer(10);
    const first = await app.services.ledger.requests.hold({ userId, amount: 1, reason: 'vaas: first', apiKeyId: keyId });
    await app.services.ledger.requests.capture(first, 1, 'done');
    const sweeper = new LedgerService(app.services.db, secondAhead(), 0);
    await sweeper.releaseEndedJobHolds();
    const [{ newest }] = await app.services.db.query("SELECT max(created_at) AS newest FROM ledger_entries WHERE kind = 'hold' AND job_id IS NULL");
    // Everything before the newest hold less a minute has been examined and is never read again.
    expect((await mark()).getTime()).toBe(new Date(newest as Date).getTime() - 60_000);

    // A hold older than the mark (stamped by hand here) is outside every later sweep; one made after is released.
    const stale = await app.services.ledger.requests.hold({ userId, amount: 2, reason: 'vaas: stale', apiKeyId: keyId });
    await app.services.db.query('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_no_update');
    try {
      await app.services.db.query('UPDATE ledger_entries SET created_at = $2 WHERE idempotency_key = $1', [
        `rhold:${stale.holdId}`,
        new Date((await mark()).getTime() - 1000),
      ]);
    } finally {
      await app.services.db.query('ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_no_update');
    }
    const crashed = await app.services.ledger.requests.hold({ userId, amount: 3, reason: 'vaas: crashed', apiKeyId: keyId });
    expect(await sweeper.releaseEndedJobHolds()).toBe(1);
    expect(await app.services.ledger.requests.release(crashed, 'again')).toBe(false);
    expect(await app.services.ledger.requests.release(stale, 'by its own request')).toBe(true);
    expect(await moneyState(app.services.db, userId)).toMatchObject({ balance: 9, held: 0 });
  }, 60_000);
});
