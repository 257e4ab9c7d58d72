import type { Job, JobKind, JobResult, JobStatus } from '../entities/job.entity';
import type { Links } from '../lib/links';
import { renderGeneration } from './generation.presenter';
import type { Static } from '../lib/json-schema';
import type { jobSchema } from './job.schema';

/** A job as both transports show it; `costCredits` is what the ledger holds for it. `result` is of its kind
 * (src/jobs/<kind>.task.ts declares it): GraphQL reads it as it is, REST renders it (renderJobResult). */
export interface JobView {
  ctId: string;
  url: string;
  kind: JobKind;
  status: JobStatus;
  step: string | null;
  costCredits: number;
  result: JobResult | null;
  error: string | null;
  dataSourceCtId: string | null;
  dmCtId: string | null;
  taskId: string | null;
  created: Date;
  updated: Date;
}

/** A job's own fields, without what the ledger says (GraphQL reads `costCredits` on demand). */
export type JobFields = Omit<JobView, 'costCredits'>;

/** Where a model a job built is found (the results of assemble and upload jobs). */
export interface ModelLinks {
  dmCtId: string;
  modelUrl: string;
  catalogUrl: string;
  packageUrl: string | null;
}

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

/** The result of a job of kind `kind` (its task's declared type, as the job keeps it); null for another kind or
 * before it has one. The job's kind says which its result is: both transports read it through here. */
export const resultOfKind = <K extends JobKind>(view: Pick<JobFields, 'kind' | 'result'>, kind: K): JobResult<K> | null =>
  view.kind === kind ? view.result : null;

const renderLinks = (links: ModelLinks) => ({
  dm_ct_id: links.dmCtId,
  model_url: links.modelUrl,
  catalog_url: links.catalogUrl,
  package_url: links.packageUrl,
});

/** The contract's `result` of a job (REST-compat, snake_case), by its kind; null until it has one. */
export function renderJobResult(view: Pick<JobFields, 'kind' | 'result'>): Record<string, unknown> | null {
  switch (view.kind) {
    case 'assemble': {
      const result = resultOfKind(view, view.kind);
      if (!result) return null;
      // A job that failed after its build keeps only the links; finalize_error only when finalizing failed.
      return {
        ...renderLinks(result),
        ...(result.published === undefined ? {} : { published: result.published }),
        ...(result.generated === undefined ? {} : { generated: result.generated }),
        ...(result.finalizeError === undefined ? {} : { finalize_error: result.finalizeError }),
      };
    }
    case 'upload': {
      const result = resultOfKind(view, view.kind);
      if (!result) return null;
      const columns = result.columns.map((column) => ({ label: column.label, data_type: column.dataType }));
      return { ...renderLinks(result), published: result.published, generated: result.generated, columns };
    }
    case 'generate_package':
    case 'generate_app': {
      const result = resultOfKind(view, view.kind);
      return result && renderGeneration(result);
    }
  }
}

/** The contract's job fields (REST-compat). */
export function renderJob(view: JobView): Static<typeof jobSchema> {
  return {
    ct_id: view.ctId,
    url: view.url,
    kind: view.kind,
    status: view.status,
    step: view.step,
    cost_credits: view.costCredits,
    result: renderJobResult(view),
    error: view.error,
    data_source_ct_id: view.dataSourceCtId,
    dm_ct_id: view.dmCtId,
    task_id: view.taskId,
    created: view.created.toISOString(),
    updated: view.updated.toISOString(),
  };
}
