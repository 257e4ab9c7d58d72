import { loadSettings } from '../../src/config';
import type { TestApp } from '../support/app';
import { statePopulationXml } from '../unit/xml/fixtures';
import { moneyState, vaasMoneySuite } from './money-helpers';

/** The storage quota of VaaS packages (issue 30, point 7): a user's live packages stay within
 * VAAS_PACKAGE_QUOTA_BYTES; the one that would pass it answers 507 storage_quota_exceeded, stores nothing and
 * charges nothing (its charge on admission is refunded); once packages expire there is room again. */

const QUOTA = 1024 * 1024;
const suite = vaasMoneySuite({ vaas: { ...loadSettings({}).vaas, packageQuotaBytes: QUOTA } });
let app: TestApp;
beforeAll(() => {
  app = suite.app();
});

const validate = async (key: string) => {
  const res = await fetch(`${app.url}/api/v1/vaas/validate/?mode=strict&package=true`, {
    method: 'POST',
    headers: { authorization: `Token ${key}`, 'content-type': 'application/xml' },
    body: statePopulationXml(),
  });
  return { status: res.status, body: await res.json() };
};
const stored = async (userId: number) =>
  (await app.services.db.query('SELECT coalesce(sum(size), 0) AS bytes, count(*) AS n FROM vaas_packages WHERE user_id = $1', [userId]))[0] as {
    bytes: string;
    n: string;
  };

it('refuses the package past the quota with 507, charging nothing, and has room again once packages expire', async () => {
  const { userId, key } = await suite.customer(1000);
  let accepted = 0;
  let refused: { status: number; body: Record<string, unknown> } | null = null;
  for (let i = 0; i < 200 && !refused; i++) {
    const res = await validate(key);
    if (res.status === 200) accepted++;
    else refused = res;
  }
  expect(accepted).toBeGreaterThan(0);
  expect(refused?.status).toBe(507);
  expect(refused?.body).toMatchObject({ error_type: 'storage_quota_exceeded', quota_bytes: QUOTA });
  expect(String(refused?.body.error)).toContain('VAAS_PACKAGE_QUOTA_BYTES');
  const held = await stored(userId);
  expect(Number(held.n)).toBe(accepted);
  expect(Number(held.bytes)).toBeLessThanOrEqual(QUOTA);
  // Only the accepted validations were charged; the refused one was charged on admission and refunded, once.
  const state = await moneyState(app.services.db, userId);
  expect([state.balance, state.held]).toEqual([1000 - accepted, 0]);
  const [rows] = await app.services.db.query(
    `SELECT count(*) FILTER (WHERE kind = 'charge')::int AS charges, count(*) FILTER (WHERE kind = 'refund')::int AS refunds,
            count(*) FILTER (WHERE kind IN ('hold', 'capture', 'release'))::int AS holds
       FROM ledger_entries WHERE user_id = $1`,
    [userId],
  );
  expect(rows).toEqual({ charges: accepted + 1, refunds: 1, holds: 0 });

  // Another user has a quota of their own.
  const other = await suite.customer(10);
  expect((await validate(other.key)).status).toBe(200);

  app.clock.advance((app.services.settings.vaas.packageTtlSeconds + 1) * 1000);
  expect((await validate(key)).status).toBe(200);
}, 180_000);
