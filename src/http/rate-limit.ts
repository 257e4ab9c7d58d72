import type { DataSource } from 'typeorm';
import { sql, queryOne, query } from '../db/sql';
import { DomainError } from '../lib/errors';
import type { Clock } from '../services/clock';

/** Hourly limits of the public catalog reads: per client address without credentials, per user with them. */
export interface ReadLimits {
  anonymousReadsPerHour: number;
  keyedReadsPerHour: number;
}

const WINDOW_MS = 3_600_000;

const hit = (bucket: string, windowStart: Date, reads: number) =>
  sql<{ hits: number }>(
    `INSERT INTO read_rate_limits (bucket, window_start, hits) VALUES ($1, $2, $3)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = read_rate_limits.hits + $3 RETURNING hits`,
    [bucket, windowStart, reads],
  );

const forgetBefore = (windowStart: Date) => sql('DELETE FROM read_rate_limits WHERE window_start < $1', [windowStart]);

const readsLimited = (limit: number, retryAfterSeconds: number) =>
  new DomainError(429, 'rate_limited', `Too many catalog reads: at most ${limit} an hour. Try again later, or send an API key.`, {
    limit,
    retry_after_seconds: retryAfterSeconds,
  });

/** A fixed hourly window counted in Postgres, so every replica shares it; a new window clears the old ones. */
export class ReadRateLimiter {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly limits: ReadLimits,
  ) {}

  /** Counts `reads` reads (a GraphQL operation may hold several) and returns the reads left; 429 with Retry-After
   * once the window's limit is passed. REST and GraphQL share the bucket, so switching transport gains nothing. */
  async check(caller: { userId: number } | null, address: string, reads = 1): Promise<{ limit: number; remaining: number }> {
    const now = this.clock.now().getTime();
    const windowStart = new Date(now - (now % WINDOW_MS));
    const limit = caller ? this.limits.keyedReadsPerHour : this.limits.anonymousReadsPerHour;
    const bucket = caller ? `user:${caller.userId}` : `address:${address}`;
    const counted = await queryOne(this.db, hit(bucket, windowStart, reads));
    const hits = counted?.hits ?? reads;
    if (hits === reads) await query(this.db, forgetBefore(windowStart));
    if (hits > limit) throw readsLimited(limit, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000));
    return { limit, remaining: limit - hits };
  }
}
