import type { Job } from '../entities/job.entity';
import { jobUrl } from '../services/jobs.service';

/** The contract's job fields; `cost_credits` is read from the ledger by the caller. */
export function presentJob(job: Job, costCredits: number, baseUrl: string) {
  return {
    ct_id: job.ctId,
    url: jobUrl(baseUrl, job.ctId),
    kind: job.kind,
    status: job.status,
    step: job.step,
    cost_credits: costCredits,
    result: job.result,
    error: job.error,
    data_source_ct_id: job.dataSourceCtId,
    dm_ct_id: job.dmCtId,
    task_id: job.taskId,
    created: job.createdAt.toISOString(),
    updated: job.updatedAt.toISOString(),
  };
}
