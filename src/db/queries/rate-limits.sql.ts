import { sql } from '../sql';

/** Counts `reads` in a bucket's window and returns the window's hits so far. */
export const countReads = (bucket: string, windowStart: Date, reads: number) =>
  sql<{ hits: number }>(
    `INSERT INTO read_rate_limits (bucket, window_start, hits) VALUES ($1, $2, $3)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = read_rate_limits.hits + $3 RETURNING hits`,
    [bucket, windowStart, reads],
  );

export const forgetWindowsBefore = (windowStart: Date) => sql('DELETE FROM read_rate_limits WHERE window_start < $1', [windowStart]);
