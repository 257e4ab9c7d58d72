import { sql } from '../sql';
import { QUEUE_SCHEMA } from '../queues';

/** The jobs table (migration 0008 and later): a job's row beside its queue message. */

/** Names the pg-boss message that runs the job. */
export const setJobTask = (jobId: number, taskId: string) => sql('UPDATE jobs SET task_id = $2 WHERE id = $1', [jobId, taskId]);

/** A worker takes the job: one more attempt. */
export const countJobAttempt = (jobId: number) => sql('UPDATE jobs SET attempts = attempts + 1 WHERE id = $1', [jobId]);

/** The columns a change of a job may set (its request, owner and queue message never change). */
export interface JobColumns {
  status?: string;
  step?: string | null;
  /** JSON text, or null. */
  result?: string | null;
  error?: string | null;
  dm_ct_id?: string | null;
}

/** Sets the given columns and updated_at; returns the id, none when there is no such job. */
export function updateJob(jobId: number, updatedAt: Date, columns: JobColumns) {
  const values: unknown[] = [jobId, updatedAt];
  const sets = ['updated_at = $2'];
  for (const [name, value] of Object.entries(columns)) {
    if (value === undefined) continue;
    values.push(value);
    sets.push(`${name} = $${values.length}${name === 'result' ? '::jsonb' : ''}`);
  }
  return sql<{ id: string }>(`UPDATE jobs SET ${sets.join(', ')} WHERE id = $1 RETURNING id`, values);
}

/** Jobs still queued or running whose queue message has failed or been cancelled for good (live or archived). */
export const lostJobs = () =>
  sql<{ id: string }>(
    `SELECT j.id FROM jobs j
      WHERE j.status IN ('queued', 'running') AND j.task_id IS NOT NULL
        AND (EXISTS (SELECT 1 FROM ${QUEUE_SCHEMA}.job q WHERE q.id::text = j.task_id AND q.state IN ('failed', 'cancelled'))
             OR EXISTS (SELECT 1 FROM ${QUEUE_SCHEMA}.archive a WHERE a.id::text = j.task_id AND a.state IN ('failed', 'cancelled')))`,
  );

/** The title of the model a job built. */
export const jobModelTitle = (dmCtId: string) => sql<{ title: string }>('SELECT title FROM data_models WHERE ct_id = $1', [dmCtId]);
