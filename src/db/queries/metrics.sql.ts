import { sql } from '../sql';
import { QUEUE_SCHEMA } from '../queues';

/** What /metrics reads from Postgres at each scrape (src/metrics): counts only, nothing per row but job times. */

/** Messages waiting or held by a worker, per queue and pg-boss state. */
export const queueDepth = () =>
  sql<{ name: string; state: string; count: number }>(
    `SELECT name, state::text AS state, count(*)::int AS count FROM ${QUEUE_SCHEMA}.job
      WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`,
  );

/** Jobs that finished after `since` (every one when null), oldest first, at most `limit`: their time from being
 * queued to finishing. */
export const finishedJobs = (since: Date | null, limit: number) =>
  sql<{ kind: string; status: string; seconds: number; updated_at: Date }>(
    `SELECT kind, status, EXTRACT(EPOCH FROM (updated_at - created_at))::float8 AS seconds, updated_at FROM jobs
      WHERE status IN ('completed', 'failed') AND ($1::timestamptz IS NULL OR updated_at > $1)
      ORDER BY updated_at LIMIT $2`,
    [since, limit],
  );

/** Stored instances per validation status (an invalid instance is refused, not stored: see the 422s of
 * POST /api/v1/validate/xml/ in the request counter). */
export const instancesByValidationStatus = () =>
  sql<{ status: string; count: number }>(`SELECT validation_status AS status, count(*)::int AS count FROM app_instances GROUP BY validation_status`);
