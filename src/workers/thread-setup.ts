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

/** In a pool thread: the limits the service passed as workerData. */
export function applyThreadSettings(): void {
  if (workerData) applyLimits(workerData as ThreadSettings);
}
