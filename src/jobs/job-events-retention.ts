import type { DataSource } from 'typeorm';
import { trimEndedJobEvents } from '../db/queries/job-events.sql';
import { queryOne } from '../db/sql';
import type { Clock } from '../services/clock';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows one DELETE removes at most (each its own short transaction) and DELETEs one run makes at most, so a large
 * backlog is worked off over several runs instead of holding locks on job_events for long. */
const TRIM_BATCH = { rows: 1000, perRun: 20 };

/** JOB_EVENTS_RETENTION_DAYS: once a job has been completed or failed for longer, its event log keeps only its last
 * event (how it ended); running and queued jobs, and jobs that ended since, keep every event. 0 keeps all. */
export class JobEventsRetention {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly retentionDays: number,
    private readonly batch = TRIM_BATCH,
  ) {}

  /** One run: at most `batch.perRun` batches; returns how many events it deleted. */
  async run(): Promise<number> {
    if (this.retentionDays <= 0) return 0;
    const cutoff = new Date(this.clock.now().getTime() - this.retentionDays * DAY_MS);
    let deleted = 0;
    for (let i = 0; i < this.batch.perRun; i++) {
      const trimmed = (await queryOne(this.db, trimEndedJobEvents(cutoff, this.batch.rows)))!;
      deleted += trimmed.deleted;
      if (trimmed.found < this.batch.rows) break;
    }
    return deleted;
  }
}
