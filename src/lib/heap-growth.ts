import v8 from 'node:v8';

/**
 * How far the event loop's old generation may grow past what survived the last full GC before the next one
 * (HEAP_GROWING_PERCENT; 0 leaves V8's own factor). V8 picks a factor of up to 4× from its GC speed: under
 * request load the event loop promotes many short-lived request objects (in flight across a scavenge) into the
 * old generation, and with ~60 MB live the heap then held up to 200 MB, mostly garbage, before a full GC — the
 * largest swing in the service's RSS (bench:validate, issue 28). A bounded factor collects that garbage sooner.
 * Applied once, before the server accepts requests; a V8 flag, so it is process-wide (worker threads have their
 * own resourceLimits).
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
