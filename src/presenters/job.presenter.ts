import type { Job, JobKind, JobStatus } from '../entities/job.entity';
import type { Links } from '../lib/links';

/** A job as both transports show it; `costCredits` is what the ledger holds for it. */
export interface JobView {
  ctId: string;
  url: string;
  kind: JobKind;
  status: JobStatus;
  step: string | null;
  costCredits: number;
  result: Record<string, unknown> | null;
  error: string | null;
  dataSourceCtId: string | null;
  dmCtId: string | null;
  taskId: string | null;
  created: Date;
  updated: Date;
}

/** A job's own fields, without what the ledger says (GraphQL reads `costCredits` on demand). */
export type JobFields = Omit<JobView, 'costCredits'>;

export function jobView(job: Job, costCredits: number, links: Links): JobView {
  return { ...jobFields(job, links), costCredits };
}

export function jobFields(job: Job, links: Links): JobFields {
  return {
    ctId: job.ctId,
    url: links.job(job.ctId),
    kind: job.kind,
    status: job.status,
    step: job.step,
    result: job.result,
    error: job.error,
    dataSourceCtId: job.dataSourceCtId,
    dmCtId: job.dmCtId,
    taskId: job.taskId,
    created: job.createdAt,
    updated: job.updatedAt,
  };
}

/** The contract's job fields (REST-compat). */
export function renderJob(view: JobView) {
  return {
    ct_id: view.ctId,
    url: view.url,
    kind: view.kind,
    status: view.status,
    step: view.step,
    cost_credits: view.costCredits,
    result: view.result,
    error: view.error,
    data_source_ct_id: view.dataSourceCtId,
    dm_ct_id: view.dmCtId,
    task_id: view.taskId,
    created: view.created.toISOString(),
    updated: view.updated.toISOString(),
  };
}
