import { workerData } from 'node:worker_threads';
import { applyCsvLimits } from '../domain/csv';
import { applyRdfLimits } from '../rdf/rdf-limits';
import { applyXmlLimits } from '../xml/safe-parse';
import { lowerThreadPriority } from '../lib/thread-priority';
import type { ThreadSettings } from './pool';

/** Applies the configured parsing limits in this thread (each thread has its own module state). */
export function applyLimits(settings: ThreadSettings): void {
  applyXmlLimits(settings.xml);
  applyRdfLimits(settings.rdf);
  applyCsvLimits(settings.csv);
}

/** In a pool thread: the limits the service passed as workerData, and a lower scheduling priority than the event
 * loop's (CPU_POOL_NICE), so CPU-bound tasks yield the cores to routing, health checks and cheap requests whenever
 * both want them (src/lib/thread-priority.ts; where unsupported nothing changes). */
export function applyThreadSettings(): void {
  if (!workerData) return;
  const settings = workerData as ThreadSettings;
  applyLimits(settings);
  lowerThreadPriority(settings.nice);
}
