import { decide, type KeyMoney } from '../../../src/money/decide';

const wallet = (balance: number, held = 0) => ({ balance, held });
const key = (over: Partial<KeyMoney> = {}): KeyMoney => ({ limit: null, spent: 0, held: 0, revoked: false, ...over });

describe('decide: the one decision of every money movement', () => {
  it('a hold reserves the amount on the wallet and the key, within the available balance', () => {
    expect(decide(wallet(1000, 400), key(), { kind: 'hold', amount: 600 })).toMatchObject({ wallet: { balance: 0, held: 600 }, key: { held: 600 } });
    expect(decide(wallet(1000, 400), key(), { kind: 'hold', amount: 601 })).toEqual({ refused: 'funds', available: 600 });
  });

  it('judges the key first: revoked, then its limit (open holds count), then the funds', () => {
    expect(decide(wallet(0), key({ revoked: true }), { kind: 'charge', amount: 1 })).toEqual({ refused: 'key_revoked' });
    expect(decide(wallet(0), key({ limit: 100, spent: 60, held: 30 }), { kind: 'charge', amount: 11 })).toEqual({
      refused: 'key_limit',
      limit: 100,
      committed: 90,
    });
    expect(decide(wallet(5), key({ limit: 100, spent: 60, held: 30 }), { kind: 'charge', amount: 10 })).toEqual({ refused: 'funds', available: 5 });
  });

  it('a capture closes the hold and takes min(amount, held); a revoked key is never charged', () => {
    expect(decide(wallet(1000, 600), key({ held: 600 }), { kind: 'capture', held: 600, amount: 700 })).toEqual({
      wallet: { balance: -600, held: -600 },
      key: { spent: 600, held: -600 },
      captured: 600,
    });
    expect(decide(wallet(1000, 6), key({ held: 6 }), { kind: 'capture', held: 6, amount: 1 })).toMatchObject({
      wallet: { balance: -1, held: -6 },
      captured: 1,
    });
    expect(decide(wallet(1000, 6), key({ held: 6, revoked: true }), { kind: 'capture', held: 6, amount: 1 })).toEqual({ refused: 'key_revoked' });
  });

  it('release and refund give back, never below zero on the key; without a key only the wallet moves', () => {
    expect(decide(wallet(10, 6), key({ held: 2 }), { kind: 'release', held: 6 })).toMatchObject({ wallet: { held: -6 }, key: { held: -2 } });
    expect(decide(wallet(10, 6), key({ spent: 3, revoked: true }), { kind: 'refund', amount: 5 })).toMatchObject({
      wallet: { balance: 5 },
      key: { spent: -3 },
    });
    expect(decide(wallet(10), null, { kind: 'charge', amount: 10 })).toEqual({
      wallet: { balance: -10, held: 0 },
      key: { spent: 0, held: 0 },
      captured: 0,
    });
  });
});
