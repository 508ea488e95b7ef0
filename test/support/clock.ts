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
