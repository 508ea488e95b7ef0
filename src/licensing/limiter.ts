/**
 * The pacing interface the request core depends on. The bottleneck-backed implementation lives in
 * limiter-bottleneck.ts (see docs/ratelimit.md); tests and tools may use createUnlimitedLimiter.
 */

/** Interactive: a person is waiting in Slack. Background: bulk jobs, dashboard, alerts. */
export type Priority = 'interactive' | 'background';

export interface LimiterStats {
  /** The limit in force now (may be below the configured one after repeated 429s). */
  currentLimit: number;
  configuredLimit: number;
  queued: number;
  running: number;
}

export interface RateLimiter {
  /**
   * Runs `fn` when a slot is free. Resolves with fn's result as soon as fn settles; the slot itself
   * stays taken until a window (plus margin) after fn settled, so that at most `limit` requests
   * reach the server in any rolling window. Rejects with QueueFullError when the queue is full.
   */
  schedule<T>(priority: Priority, fn: () => Promise<T>): Promise<T>;
  /** The server answered 429: pause every new start for `delayMs`, and adapt the limit. */
  onRateLimited(delayMs: number): void;
  /** A request reached the server and was not a 429 (feeds the adaptive limit). */
  onSuccess(): void;
  stats(): LimiterStats;
  /** Estimated wait, in ms, for a request of this priority submitted now. */
  estimateWaitMs(priority: Priority): number;
  /** Stops accepting work; waits for running jobs. */
  stop(): Promise<void>;
}

/** A limiter that never waits: for tools and tests that exercise other parts of the client. */
export function createUnlimitedLimiter(): RateLimiter {
  let running = 0;
  return {
    async schedule(_priority, fn) {
      running++;
      try {
        return await fn();
      } finally {
        running--;
      }
    },
    onRateLimited() {},
    onSuccess() {},
    stats: () => ({
      currentLimit: Number.POSITIVE_INFINITY,
      configuredLimit: Number.POSITIVE_INFINITY,
      queued: 0,
      running,
    }),
    estimateWaitMs: () => 0,
    async stop() {},
  };
}
