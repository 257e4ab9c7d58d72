import DataLoader from 'dataloader';
import type { Services } from '../container';

/** Batched reads for fields that would otherwise read once per object (a list of 100 jobs asking `costCredits`
 * is one ledger query). One set per GraphQL context: per HTTP request, per subscription. */
export interface Loaders {
  /** What the ledger holds for a job (internal id), in credits. */
  jobCost: DataLoader<number, number>;
  /** The number of a job's last event (by ct_id); 0 before any. */
  jobSeq: DataLoader<string, number>;
}

// No cache, only batching: a subscription's context lives as long as its stream, while costs and events change.
const batchOnly = { cache: false } as const;

export function createLoaders(services: Pick<Services, 'ledger' | 'jobs'>): Loaders {
  return {
    jobCost: new DataLoader(async (ids: readonly number[]) => {
      const costs = await services.ledger.jobCosts([...ids]);
      return ids.map((id) => costs.get(id) ?? 0);
    }, batchOnly),
    jobSeq: new DataLoader(async (ctIds: readonly string[]) => {
      const seqs = await services.jobs.lastEventSeqOf([...ctIds]);
      return ctIds.map((ctId) => seqs.get(ctId) ?? 0);
    }, batchOnly),
  };
}
