/**
 * The clock the limiter's own timers run on (held slots after the answer, the 429 pause, the Redis
 * ready timeout). Injected so each part is unit-tested on a fake clock instead of sleeping; bottleneck's
 * internal turns of the event loop stay on the real one (docs/rate-limiting.md, "The parts").
 */
export interface ClockTimer {
  cancel(): void;
}

export interface Clock {
  now(): number;
  /** Calls `fn` once `ms` have passed on this clock. */
  setTimer(fn: () => void, ms: number): ClockTimer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const timer = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(timer) };
  },
};
