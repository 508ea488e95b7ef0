/**
 * Long loops over big accounts give the event loop a turn now and then, so that a Slack request
 * that arrives meanwhile is acknowledged at once (Slack waits 3 seconds) and no turn holds the loop
 * for long (target: under 50 ms of CPU at 50,000 licenses; `npm run bench:scale` measures it).
 */

/** Lets timers, I/O and other requests run before the loop goes on. */
export const yieldToLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Items handled between two turns in the loops below: a few milliseconds of simple work per slice
 * (one Date.parse and a push or two per license) even on a loaded machine.
 */
export const SLICE = 2_000;

/**
 * Calls `work(from, to)` over [0, length) in slices of `size`, with a turn of the event loop
 * between two slices (none before the first, so a small list costs no extra turn).
 */
export async function inSlices(
  length: number,
  work: (from: number, to: number) => void,
  size: number = SLICE,
): Promise<void> {
  for (let from = 0; from < length; from += size) {
    if (from > 0) await yieldToLoop();
    work(from, Math.min(length, from + size));
  }
}
