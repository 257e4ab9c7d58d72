import { sql } from '../sql';
import type { JobStatus } from '../../entities/job.entity';

/** The job event log (migration 0016): one row per status or step a job enters, numbered per job. */

export interface JobEventRow {
  seq: number;
  status: JobStatus;
  step: string | null;
  at: Date;
}

/** Records the job's current status and step as its next event, unless they are those of its last event (a change
 * of other fields, such as its model, is no step). Runs after the UPDATE or INSERT of the job in the same
 * transaction, whose row lock orders the events of one job. */
export const recordJobEvent = (jobId: number) =>
  sql<JobEventRow>(
    `INSERT INTO job_events (job_id, seq, status, step, at)
     SELECT j.id, COALESCE(last.seq, 0) + 1, j.status, j.step, j.updated_at
       FROM jobs j
       LEFT JOIN LATERAL (SELECT e.seq, e.status, e.step FROM job_events e WHERE e.job_id = j.id ORDER BY e.seq DESC LIMIT 1) last ON true
      WHERE j.id = $1 AND (last.seq IS NULL OR last.status <> j.status OR last.step IS DISTINCT FROM j.step)
     RETURNING seq, status, step, at`,
    [jobId],
  );

/** The events of one job after `afterSeq`, in order. */
export const jobEventsAfter = (ctId: string, afterSeq: number) =>
  sql<JobEventRow>(
    `SELECT e.seq, e.status, e.step, e.at FROM job_events e JOIN jobs j ON j.id = e.job_id
      WHERE j.ct_id = $1 AND e.seq > $2 ORDER BY e.seq`,
    [ctId, afterSeq],
  );

/** The last event number of each of a user's jobs. */
export const lastJobEventSeqs = (userId: number) =>
  sql<{ ct_id: string; seq: number }>(
    'SELECT j.ct_id, max(e.seq) AS seq FROM jobs j JOIN job_events e ON e.job_id = j.id WHERE j.user_id = $1 GROUP BY j.ct_id',
    [userId],
  );

/** The last event number of each job named by ct_id; a job without events is absent. */
export const lastEventSeqOf = (ctIds: string[]) =>
  sql<{ ct_id: string; seq: number }>(
    'SELECT j.ct_id, max(e.seq) AS seq FROM jobs j JOIN job_events e ON e.job_id = j.id WHERE j.ct_id = ANY($1::text[]) GROUP BY j.ct_id',
    [ctIds],
  );

/** One bounded batch of the retention sweep (migration 0022): deletes up to `limit` events of jobs that ended
 * (completed or failed) before `cutoff`, all but each job's last one, which says how it ended. Reads only the jobs
 * that ended since the sweep's mark, oldest first, and moves the mark past those it has trimmed completely: to
 * `cutoff` when fewer than `limit` were left, else to the newest batched job (its equals may still have more). Two
 * sweeps at once delete the same rows at worst, and the mark only moves forward. */
export const trimEndedJobEvents = (cutoff: Date, limit: number) =>
  sql<{ deleted: number; found: number }>(
    `WITH doomed AS (
       SELECT e.job_id, e.seq, j.updated_at FROM jobs j JOIN job_events e ON e.job_id = j.id
        WHERE j.status IN ('completed', 'failed') AND j.updated_at < $1
          AND j.updated_at >= (SELECT trimmed_before FROM job_events_retention)
          AND e.seq < (SELECT max(l.seq) FROM job_events l WHERE l.job_id = j.id)
        ORDER BY j.updated_at, e.job_id, e.seq LIMIT $2),
     gone AS (DELETE FROM job_events e USING doomed d WHERE e.job_id = d.job_id AND e.seq = d.seq RETURNING 1)
     UPDATE job_events_retention SET trimmed_before = greatest(trimmed_before,
       CASE WHEN (SELECT count(*) FROM doomed) < $2 THEN $1::timestamptz ELSE (SELECT max(updated_at) FROM doomed) END)
     RETURNING (SELECT count(*) FROM gone)::int AS deleted, (SELECT count(*) FROM doomed)::int AS found`,
    [cutoff, limit],
  );

export interface JobPositionRow {
  ct_id: string;
  last_seq: number;
  last_at: Date;
  first_seq_since: number | null;
}

/** Each of a user's jobs with its last event, and the first of its events at or after `since` (null if none):
 * where a myJobs stream that resumes from a cursor starts each job. */
export const jobPositionsOf = (userId: number, since: Date) =>
  sql<JobPositionRow>(
    `SELECT j.ct_id, last.seq AS last_seq, last.at AS last_at,
            (SELECT min(e.seq) FROM job_events e WHERE e.job_id = j.id AND e.at >= $2) AS first_seq_since
       FROM jobs j JOIN LATERAL (SELECT e.seq, e.at FROM job_events e WHERE e.job_id = j.id ORDER BY e.seq DESC LIMIT 1) last ON true
      WHERE j.user_id = $1`,
    [userId, since],
  );
