import type { Migration } from './migration';

/** The job_events retention sweep (JOB_EVENTS_RETENTION_DAYS) trims final jobs in the order they ended. Its mark
 * says up to where it has trimmed every job, so a run reads only the jobs that ended since, not every job ever
 * made; the partial index finds those jobs by when they ended. */
export const jobEventsRetention: Migration = {
  id: '0022-job-events-retention',
  sql: `
CREATE TABLE job_events_retention (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  trimmed_before timestamptz NOT NULL
);
INSERT INTO job_events_retention (trimmed_before) VALUES ('-infinity');
CREATE INDEX jobs_ended_idx ON jobs (updated_at) WHERE status IN ('completed', 'failed');
`,
};
