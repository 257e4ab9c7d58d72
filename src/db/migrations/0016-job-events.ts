import type { Migration } from './migration';

/** Every status and step a job goes through, numbered per job (seq 1, 2, …) in the transaction that changes the
 * job: subscribers stream these rows, so each step reaches each of them once and in order, and a subscriber that
 * reconnects reads the steps it missed. Jobs older than this migration start with their current state as seq 1. */
export const jobEvents: Migration = {
  id: '0016-job-events',
  sql: `
CREATE TABLE job_events (
  job_id bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq > 0),
  status text NOT NULL,
  step text,
  at timestamptz NOT NULL,
  PRIMARY KEY (job_id, seq)
);
INSERT INTO job_events (job_id, seq, status, step, at) SELECT id, 1, status, step, updated_at FROM jobs;
`,
};
