import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { Settings } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';
import { issueKey, signedIn } from '../support/factories';
import { FIXTURES, SDC4_REFERENCE_DIR } from '../unit/xml/fixtures';

export const ASSEMBLE = '/api/v1/dmgen/assemble/';
/** Model 500 + one new component 100. */
export const MIXED_PRICE = 600;

export const GQL_ASSEMBLE = `mutation ($input: AssemblyInput!) { assemble(input: $input) {
  __typename ... on AssemblyJob { jobCtId } ... on BuiltModel { ctId }
} }`;

/** A mixed assembly: one new component, so it is queued as a job. */
export const mixedBody = (title: string) => ({
  title,
  generate: false,
  data: { label: `${title} Data`, components: [{ label: 'Count', data_type: 'XdCount' }] },
});

export const mixedInput = (title: string) => ({
  title,
  generate: false,
  data: { label: `${title} Data`, components: [{ label: 'Count', dataType: 'XdCount' }] },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until none of the user's jobs is queued or running. */
export async function jobsSettled(db: DataSource, userId: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [{ open }] = await db.query("SELECT count(*)::int AS open FROM jobs WHERE user_id = $1 AND status IN ('queued', 'running')", [userId]);
    if (open === 0) return;
    await sleep(250);
  }
  throw new Error('jobs did not settle');
}

export interface MoneyState {
  balance: number;
  held: number;
  /** Σ credit, charge and refund rows: must equal the balance. */
  ledgerBalance: number;
  /** Σ of holds not closed by a capture or a release: must equal `held`. */
  ledgerHeld: number;
  holds: number;
  captures: number;
  releases: number;
  models: number;
}

export async function moneyState(db: DataSource, userId: number): Promise<MoneyState> {
  const [row] = await db.query(
    `SELECT w.balance_credits::int AS balance, w.held_credits::int AS held,
            (SELECT coalesce(sum(amount_credits), 0)::int FROM ledger_entries WHERE user_id = $1 AND kind IN ('credit', 'charge', 'refund')) AS "ledgerBalance",
            (SELECT coalesce(-sum(amount_credits), 0)::int FROM ledger_entries WHERE user_id = $1 AND kind IN ('hold', 'capture', 'release')) AS "ledgerHeld",
            (SELECT count(*)::int FROM ledger_entries WHERE user_id = $1 AND kind = 'hold') AS holds,
            (SELECT count(*)::int FROM ledger_entries WHERE user_id = $1 AND kind = 'capture') AS captures,
            (SELECT count(*)::int FROM ledger_entries WHERE user_id = $1 AND kind = 'release') AS releases,
            (SELECT count(*)::int FROM data_models WHERE owner_id = $1) AS models
       FROM wallets w WHERE w.user_id = $1`,
    [userId],
  );
  return row as MoneyState;
}

/**
 * A VaaS money suite: one app with StatePopulation imported, `customer()` to sign up a caller with credits and a
 * key, and after every test Σ(credit, charge, refund) = balance and Σ(hold, capture, release) = −held for every
 * wallet a test made. `app()` is the running app once the suite's beforeAll has run.
 */
export function vaasMoneySuite(overrides: Partial<Settings> = {}) {
  let app: TestApp | undefined;
  const users: number[] = [];
  beforeAll(async () => {
    app = await startTestApp({ schemaCatalogDir: SDC4_REFERENCE_DIR, ...overrides }, { workers: false });
    await app.services.packages.importPackage(path.join(FIXTURES, 'sdc4/packages/StatePopulation'));
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });
  afterEach(async () => {
    for (const id of users) {
      const state = await moneyState(app!.services.db, id);
      expect([state.ledgerBalance, state.ledgerHeld]).toEqual([state.balance, state.held]);
    }
  });
  return {
    app: () => app!,
    customer: async (credits: number, key: Record<string, unknown> = {}) => {
      const { client, user } = await signedIn(app!.url, app!.services, { credits });
      users.push(user.id);
      const issued = await issueKey(client, key);
      return { userId: user.id, client, key: issued.key, keyId: Number(issued.id) };
    },
  };
}

/**
 * The money audit of every wallet and key in a test database: wallet balance = Σ(credit, charge, refund), wallet
 * held = −Σ(hold, capture, release); a key's held = −Σ of its holds' rows, its spent = what its charges less
 * refunds took, and spent + held within its limit. Returns the rows that disagree (empty when the books balance).
 */
export async function moneyAudit(db: DataSource): Promise<unknown[]> {
  const wallets = await db.query(
    `SELECT w.user_id::int AS "userId", w.balance_credits::int AS balance, w.held_credits::int AS held,
            (SELECT coalesce(sum(amount_credits), 0)::int FROM ledger_entries l WHERE l.user_id = w.user_id AND kind IN ('credit', 'charge', 'refund')) AS "ledgerBalance",
            (SELECT coalesce(-sum(amount_credits), 0)::int FROM ledger_entries l WHERE l.user_id = w.user_id AND kind IN ('hold', 'capture', 'release')) AS "ledgerHeld"
       FROM wallets w`,
  );
  const keys = await db.query(
    `SELECT k.id::int AS "keyId", k.spent_credits::int AS spent, k.held_credits::int AS held, k.spend_limit_credits::int AS "limit",
            (SELECT coalesce(-sum(amount_credits), 0)::int FROM ledger_entries l WHERE l.api_key_id = k.id AND kind IN ('charge', 'refund')) AS "ledgerSpent",
            (SELECT coalesce(-sum(amount_credits), 0)::int FROM ledger_entries l WHERE l.api_key_id = k.id AND kind IN ('hold', 'capture', 'release')) AS "ledgerHeld"
       FROM api_keys k`,
  );
  return [
    ...wallets.filter(
      (w: { balance: number; held: number; ledgerBalance: number; ledgerHeld: number }) => w.balance !== w.ledgerBalance || w.held !== w.ledgerHeld,
    ),
    ...keys.filter(
      (k: { spent: number; held: number; limit: number | null; ledgerSpent: number; ledgerHeld: number }) =>
        k.spent !== k.ledgerSpent || k.held !== k.ledgerHeld || (k.limit !== null && k.spent + k.held > k.limit),
    ),
  ];
}
