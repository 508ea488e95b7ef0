/**
 * The pacing interface the request core depends on. The bottleneck-backed implementation lives in
 * limiter-bottleneck.ts (see docs/rate-limiting.md); tests and tools may use createUnlimitedLimiter.
 */

/** Interactive: a person is waiting in Slack. Background: bulk jobs, dashboard, alerts. */
export type Priority = 'interactive' | 'background';

export interface LimiterStats {
  /** The limit in force now (may be below the configured one after repeated 429s). */
  currentLimit: number;
  configuredLimit: number;
  /** The window the limit counts in (60_000: "25 requests a minute"); absent for a limiter without one. */
  windowMs?: number;
  queued: number;
  running: number;
}

export interface RateLimitReport {
  /** Date.now() when the refused request was sent: a 429 for a request sent before the limiter's latest
   *  decision belongs to that decision. */
  sentAt: number;
  /** The server's Retry-After, in ms, when it sent one. */
  retryAfterMs?: number | undefined;
}

export interface RateLimiter {
  /**
   * Runs `fn` when a slot is free. Resolves with fn's result as soon as fn settles; the slot itself
   * stays taken until a window (plus margin) after fn settled, so that at most `limit` requests
   * reach the server in any rolling window. Rejects with QueueFullError when the queue is full.
   */
  schedule<T>(priority: Priority, fn: () => Promise<T>): Promise<T>;
  /**
   * The server answered 429. A limiter with a 429 policy of its own (limiter-backoff.ts) decides what it
   * costs, holds every start back accordingly (a retry may be scheduled at once), and returns the ms until
   * it lets requests through again; a limiter without one returns undefined and the caller waits per its
   * retry policy.
   */
  onRateLimited(report: RateLimitReport): number | undefined;
  /** A request reached the server and was not a 429 (ends a 429 episode, feeds the adaptive limit). */
  onSuccess(sentAt?: number): void;
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
    onRateLimited: () => undefined,
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
