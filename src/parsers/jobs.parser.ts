import { JOB_KINDS, type JobKind } from '../entities/job.entity';
import { badRequest } from '../lib/errors';

/** Filters of a jobs list; absent means any. */
export interface JobFilters {
  kind?: JobKind;
  dataSource?: string;
}

const isJobKind = (value: unknown): value is JobKind => typeof value === 'string' && (JOB_KINDS as readonly string[]).includes(value);

/** `kind` (one of JOB_KINDS) and `data_source` (a data source's ct_id), as a query string or GraphQL arguments give them. */
export function parseJobFilters(input: { kind?: unknown; data_source?: unknown }): JobFilters {
  const filters: JobFilters = {};
  if (input.kind !== undefined) {
    if (!isJobKind(input.kind)) throw badRequest(`kind must be one of ${JOB_KINDS.join(', ')}.`, { details: { kind: ['Unknown job kind.'] } });
    filters.kind = input.kind;
  }
  if (input.data_source !== undefined) {
    if (typeof input.data_source !== 'string') throw badRequest('data_source must be a ct_id.');
    filters.dataSource = input.data_source;
  }
  return filters;
}
