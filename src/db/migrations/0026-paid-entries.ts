import type { Migration } from './migration';

/** Whether a door that charges made the entry (issue 29: one price table, every door). A charging door (assembly,
 * the drafts API, a CSV upload's job) mints its rows `paid`; any other row starts unpaid, and publishing a draft
 * tree charges its unpaid drafts through the price table. Rows that exist already are marked paid: whether they
 * were paid for cannot be told from them, and charging them again could charge twice. */
export const paidEntries: Migration = {
  id: '0026-paid-entries',
  sql: `
ALTER TABLE components ADD COLUMN paid boolean NOT NULL DEFAULT true;
ALTER TABLE components ALTER COLUMN paid SET DEFAULT false;
ALTER TABLE clusters ADD COLUMN paid boolean NOT NULL DEFAULT true;
ALTER TABLE clusters ALTER COLUMN paid SET DEFAULT false;
ALTER TABLE data_models ADD COLUMN paid boolean NOT NULL DEFAULT true;
ALTER TABLE data_models ALTER COLUMN paid SET DEFAULT false;
`,
};
