/** Durations in tests are bounded relative to a baseline measured a moment before in the same test, never
 * absolutely: a busy machine slows the baseline as much as the measured work, so only a defect breaks the ratio.
 * The baseline counts as at least `floorMs` (timer jitter on an idle machine is not a defect), so on an idle
 * machine the bound is `factor × floorMs`. Absolute speed lives in `npm run bench`. */
function relativeBound(baselineMs: number, floorMs: number, factor = 10): number {
  return factor * Math.max(baselineMs, floorMs);
}

/** Expects `measuredMs` within `factor` times the baseline (itself at least `floorMs`). */
export function expectWithinBaseline(measuredMs: number, baselineMs: number, floorMs: number, factor = 10): void {
  expect(measuredMs).toBeLessThanOrEqual(relativeBound(baselineMs, floorMs, factor));
}

/** Milliseconds `work` takes. */
export async function msOf(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Milliseconds `work` takes, synchronously. */
export function msOfSync(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}
