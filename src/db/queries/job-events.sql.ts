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
