/**
 * The largest number of events in any rolling window of `windowMs`: the sliding-log rule, the
 * strictest of the three server algorithms (docs/ratelimit.md), used to check pacing.
 */
export function maxInRollingWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while ((sorted[hi] ?? 0) - (sorted[lo] ?? 0) >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
