import type { Services } from '../container';

/** Registers every queue's handler on this process (ROLE=worker or all). Each feature's worker module adds
 * one line here. */
export async function startWorkers(services: Services): Promise<void> {
  void services;
}
