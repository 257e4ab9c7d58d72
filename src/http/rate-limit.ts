import type { DataSource } from 'typeorm';
import { countReads, forgetWindowsBefore } from '../db/queries/rate-limits.sql';
import { queryOne, query } from '../db/sql';
import { DomainError } from '../lib/errors';
import type { Clock } from '../services/clock';

/** Hourly limits of the public catalog reads: per client address without credentials, per user with them. */
export interface ReadLimits {
  anonymousReadsPerHour: number;
  keyedReadsPerHour: number;
}

const WINDOW_MS = 3_600_000;

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
    const counted = await queryOne(this.db, countReads(bucket, windowStart, reads));
    const hits = counted?.hits ?? reads;
    if (hits === reads) await query(this.db, forgetWindowsBefore(windowStart));
    if (hits > limit) throw readsLimited(limit, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000));
    return { limit, remaining: limit - hits };
  }
}
