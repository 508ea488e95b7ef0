/** A clock a test moves forward: the app reads `now`, the test calls `advance` to let time pass. */
export function movableClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

/** A clock the test sets: the app reads `now`, the test moves `c.t` (milliseconds since the epoch). */
export function settableClock(iso = '2026-11-25T10:00:00.000Z') {
  const c = { t: Date.parse(iso) };
  return { c, now: () => new Date(c.t) };
}
