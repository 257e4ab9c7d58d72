import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { applyCsvLimits } from '../domain/csv';
import { applyRdfLimits } from '../rdf/rdf-parse';
import { applyXmlLimits } from '../xml/safe-parse';
import type { ThreadSettings } from './pool';

/** Applies the configured parsing limits in this thread (each thread has its own module state). */
export function applyLimits(settings: ThreadSettings): void {
  applyXmlLimits(settings.xml);
  applyRdfLimits(settings.rdf);
  applyCsvLimits(settings.csv);
}

/** How much lower than the event loop a pool thread is scheduled (nice, 0..19). At 4 a busy pool thread gets
 * about 0.4 of the event loop's share of a contended core: under hostile CPU load beside another test suite,
 * /healthz p99 stayed at 19-24 ms where one CI run at 0 saw 113; validate/xml throughput costs about 4 %, p99 more
 * (measured 0: 1,418 req/s; 4: 1,367; 10: 1,333). */
export const POOL_THREAD_NICENESS = 4;

/** In a pool thread: the limits the service passed as workerData, and a lower scheduling priority than the event
 * loop's, so CPU-bound tasks yield the cores to routing, health checks and cheap requests whenever both want them
 * (Linux schedules threads by their own nice value; elsewhere nothing changes). */
export function applyThreadSettings(): void {
  if (!workerData) return;
  applyLimits(workerData as ThreadSettings);
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), POOL_THREAD_NICENESS);
  } catch {
    // No /proc (not Linux) or not permitted: the thread keeps the process's priority.
  }
}
