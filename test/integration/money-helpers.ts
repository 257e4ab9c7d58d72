import type { DataSource } from 'typeorm';

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
