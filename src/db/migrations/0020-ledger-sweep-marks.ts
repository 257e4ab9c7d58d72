import type { Migration } from './migration';

/** How far each maintenance sweep of the ledger has looked: the request-hold sweep examines only holds created
 * since its mark (less a minute), not every request hold ever made, which grew its cost with the ledger. */
export const ledgerSweepMarks: Migration = {
  id: '0020-ledger-sweep-marks',
  sql: `
CREATE TABLE ledger_sweep_marks (
  sweep text PRIMARY KEY,
  examined_before timestamptz NOT NULL
);
INSERT INTO ledger_sweep_marks (sweep, examined_before) VALUES ('request_holds', '-infinity');
`,
};
