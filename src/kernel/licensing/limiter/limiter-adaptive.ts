/**
 * The adaptive part of the limit (docs/rate-limiting.md): the real service's limit "may change over
 * time", so 429s that repeat while we keep under our own limit lower it (limiter-backoff.ts decides
 * when), and quiet windows probe it back up. Pure state with an injected clock, so it is tested without timers.
 */

export interface LimitChange {
  from: number;
  to: number;
}

export interface AdaptiveLimit {
  current(): number;
  /** A request reached the server and was not a 429. */
  recordSuccess(): void;
  /**
   * A 429 arrived: it restarts the quiet stretch, and with `lower` (the default) lowers the limit, at most
   * once per window. Returns the change, if any.
   */
  recordRateLimited(lower?: boolean): LimitChange | undefined;
  /** After PROBE_AFTER_WINDOWS windows without a 429, raise the limit by one (never above the configured one). */
  maybeProbe(): LimitChange | undefined;
}

/** Quiet windows before the limit is probed one step up (ratelimit.md: "after 5 W without a 429"). */
export const PROBE_AFTER_WINDOWS = 5;

export function createAdaptiveLimit(opts: { configured: number; windowMs: number; now: () => number }): AdaptiveLimit {
  const { configured, windowMs, now } = opts;
  let limit = configured;
  let successes: number[] = [];
  let lastLoweredAt = Number.NEGATIVE_INFINITY;
  let lastQuietStart = Number.NEGATIVE_INFINITY;

  const successesInLastWindow = (at: number): number => {
    successes = successes.filter((t) => t > at - windowMs);
    return successes.length;
  };

  return {
    current: () => limit,
    recordSuccess() {
      const at = now();
      successes.push(at);
      // Keep the list bounded even when nobody asks for the count.
      if (successes.length > 4 * configured) successesInLastWindow(at);
    },
    recordRateLimited(lower = true) {
      const at = now();
      lastQuietStart = at;
      if (!lower || at - lastLoweredAt < windowMs) return undefined;
      // What the server accepted in the last window is a good guess of its limit; halving bounds the
      // number of steps when it accepted nothing (ratelimit.md: min(current − 1, max(successes, current / 2))).
      const next = Math.max(1, Math.min(limit - 1, Math.max(successesInLastWindow(at), Math.floor(limit / 2))));
      if (next >= limit) return undefined;
      const change = { from: limit, to: next };
      limit = next;
      lastLoweredAt = at;
      return change;
    },
    maybeProbe() {
      if (limit >= configured) return undefined;
      const at = now();
      if (at - lastQuietStart < PROBE_AFTER_WINDOWS * windowMs) return undefined;
      const change = { from: limit, to: limit + 1 };
      limit += 1;
      lastQuietStart = at;
      return change;
    },
  };
}
