/**
 * The three server-side rate-limit algorithms of docs/ratelimit.md, per token. Time is passed in
 * (milliseconds, monotonic) so the algorithms are testable without a clock, and the configuration is
 * read on every call so that setRateLimit takes effect on the very next request.
 */
import type { RateLimitAlgorithm, SandboxRateLimit } from './types.js';

/** licensing-api.md, Limits: 25 requests per minute. */
export const DEFAULT_RATE_LIMIT: SandboxRateLimit = {
  limit: 25,
  windowMs: 60_000,
  // The strictest rule ("at most L in any rolling W"): a client that never sees a 429 here is safe
  // against the other two as well (ratelimit.md).
  algorithm: 'sliding-log',
  retryAfter: false,
  countRejected: false,
};

export interface RateDecision {
  allowed: boolean;
  /** When rejected: ms until a request would be allowed again. */
  retryInMs: number;
}

interface FixedWindowState {
  kind: 'fixed-window';
  /** The window starts with the first request after the previous one ended. */
  start: number;
  count: number;
}

interface SlidingLogState {
  kind: 'sliding-log';
  arrivals: number[];
}

interface TokenBucketState {
  kind: 'token-bucket';
  tokens: number;
  last: number;
}

type State = FixedWindowState | SlidingLogState | TokenBucketState;

function initial(algorithm: RateLimitAlgorithm, config: SandboxRateLimit, now: number): State {
  switch (algorithm) {
    case 'fixed-window':
      return { kind: algorithm, start: now, count: 0 };
    case 'sliding-log':
      return { kind: algorithm, arrivals: [] };
    case 'token-bucket':
      return { kind: algorithm, tokens: config.limit, last: now };
  }
}

function decide(state: State, config: SandboxRateLimit, now: number): RateDecision {
  const { limit, windowMs, countRejected } = config;
  switch (state.kind) {
    case 'fixed-window': {
      if (now - state.start >= windowMs) {
        state.start = now;
        state.count = 0;
      }
      const allowed = state.count < limit;
      // Counting a rejection changes nothing for a fixed window: it resets at its end regardless.
      if (allowed || countRejected) state.count += 1;
      return { allowed, retryInMs: allowed ? 0 : state.start + windowMs - now };
    }
    case 'sliding-log': {
      while (state.arrivals.length > 0 && now - (state.arrivals[0] ?? now) >= windowMs) state.arrivals.shift();
      const allowed = state.arrivals.length < limit;
      if (allowed || countRejected) state.arrivals.push(now);
      // The L-th most recent arrival must leave the window before another fits.
      const blocking = state.arrivals[state.arrivals.length - limit] ?? state.arrivals[0] ?? now;
      return { allowed, retryInMs: allowed ? 0 : Math.max(0, blocking + windowMs - now) };
    }
    case 'token-bucket': {
      const rate = limit / windowMs;
      state.tokens = Math.min(limit, state.tokens + (now - state.last) * rate);
      state.last = now;
      const allowed = state.tokens >= 1;
      // With countRejected a rejection still takes a token, so the bucket goes into debt.
      if (allowed || countRejected) state.tokens -= 1;
      return { allowed, retryInMs: allowed ? 0 : Math.ceil((1 - state.tokens) / rate) };
    }
  }
}

export interface RateLimiter {
  /** Counts one request of `key` (a token kind) at `now` and says whether it may pass. */
  check(key: string, now: number): RateDecision;
  configure(config: Partial<SandboxRateLimit> | false): void;
  readonly config: SandboxRateLimit | false;
}

export function resolveRateLimit(
  config: Partial<SandboxRateLimit> | false | undefined,
  base: SandboxRateLimit = DEFAULT_RATE_LIMIT,
): SandboxRateLimit | false {
  if (config === false) return false;
  const merged = { ...base, ...config };
  if (!Number.isInteger(merged.limit) || merged.limit < 1) throw new RangeError('rate limit must be an integer >= 1');
  if (!(merged.windowMs > 0)) throw new RangeError('rate-limit window must be > 0 ms');
  return merged;
}

export function createRateLimiter(initialConfig: Partial<SandboxRateLimit> | false | undefined): RateLimiter {
  let config = resolveRateLimit(initialConfig);
  const states = new Map<string, State>();
  return {
    get config() {
      return config;
    },
    configure(next) {
      const previous = config;
      // A partial update applies over what is in force now (or the defaults when it was off).
      config = resolveRateLimit(next, previous === false ? DEFAULT_RATE_LIMIT : previous);
      // Keep the counts when only the limit changes (a limit lowered mid-run bites at once);
      // a new algorithm or window starts from scratch.
      if (config === false || previous === false || config.algorithm !== previous.algorithm) states.clear();
      else if (config.windowMs !== previous.windowMs) states.clear();
    },
    check(key, now) {
      if (config === false) return { allowed: true, retryInMs: 0 };
      let state = states.get(key);
      if (!state) {
        state = initial(config.algorithm, config, now);
        states.set(key, state);
      }
      return decide(state, config, now);
    },
  };
}
