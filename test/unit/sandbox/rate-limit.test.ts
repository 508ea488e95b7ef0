import { describe, expect, it } from 'vitest';
import { createRateLimiter, DEFAULT_RATE_LIMIT, resolveRateLimit } from '../../../local/sandbox/rate-limit.js';

const allowedAt = (limiter: ReturnType<typeof createRateLimiter>, times: number[], key = 'admin'): boolean[] =>
  times.map((t) => limiter.check(key, t).allowed);

describe('fixed window', () => {
  it('allows L per window, starting the window at its first request', () => {
    const limiter = createRateLimiter({ algorithm: 'fixed-window', limit: 3, windowMs: 1_000 });
    expect(allowedAt(limiter, [100, 200, 300, 400])).toEqual([true, true, true, false]);
    expect(limiter.check('admin', 500).retryInMs).toBe(600);
    // A new window at 1 100: a burst at the boundary is allowed (the weakness of fixed windows).
    expect(allowedAt(limiter, [1_100, 1_101, 1_102, 1_103])).toEqual([true, true, true, false]);
  });
});

describe('sliding log', () => {
  it('allows at most L arrivals in any rolling window', () => {
    const limiter = createRateLimiter({ algorithm: 'sliding-log', limit: 3, windowMs: 1_000 });
    expect(allowedAt(limiter, [0, 400, 800, 900])).toEqual([true, true, true, false]);
    expect(limiter.check('admin', 950).retryInMs).toBe(50);
    expect(allowedAt(limiter, [1_000, 1_001, 1_400])).toEqual([true, false, true]);
  });

  it('with countRejected, rejected arrivals stay in the log', () => {
    const limiter = createRateLimiter({ algorithm: 'sliding-log', limit: 2, windowMs: 1_000, countRejected: true });
    // The rejection at 500 fills the log: 1 400 is refused, where without countRejected it would pass.
    expect(allowedAt(limiter, [0, 0, 500, 1_000, 1_400])).toEqual([true, true, false, true, false]);
    expect(allowedAt(limiter, [2_401])).toEqual([true]);
    const lenient = createRateLimiter({ algorithm: 'sliding-log', limit: 2, windowMs: 1_000 });
    expect(allowedAt(lenient, [0, 0, 500, 1_000, 1_400])).toEqual([true, true, false, true, true]);
  });
});

describe('token bucket', () => {
  it('starts full with L tokens and refills L per window continuously', () => {
    const limiter = createRateLimiter({ algorithm: 'token-bucket', limit: 4, windowMs: 1_000 });
    expect(allowedAt(limiter, [0, 0, 0, 0, 0])).toEqual([true, true, true, true, false]);
    expect(limiter.check('admin', 100).retryInMs).toBe(150);
    expect(allowedAt(limiter, [250, 260, 500])).toEqual([true, false, true]);
    expect(allowedAt(limiter, [10_000, 10_000, 10_000, 10_000, 10_000])).toEqual([true, true, true, true, false]);
  });

  it('with countRejected, rejections go into debt', () => {
    const limiter = createRateLimiter({ algorithm: 'token-bucket', limit: 2, windowMs: 1_000, countRejected: true });
    expect(allowedAt(limiter, [0, 0, 0, 0])).toEqual([true, true, false, false]);
    // Two tokens of debt: a full window later the bucket is back at 0, not full (and the refusal costs one more).
    expect(allowedAt(limiter, [1_000, 2_000])).toEqual([false, true]);
  });
});

describe('the limiter', () => {
  it('keeps one budget per key', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000 });
    expect(allowedAt(limiter, [0, 1], 'admin')).toEqual([true, false]);
    expect(allowedAt(limiter, [2], 'readonly')).toEqual([true]);
  });

  it('keeps counts when only the limit changes, and resets on a new algorithm or window', () => {
    const limiter = createRateLimiter({ algorithm: 'fixed-window', limit: 10, windowMs: 1_000 });
    allowedAt(limiter, [0, 1, 2, 3]);
    limiter.configure({ limit: 3 });
    expect(allowedAt(limiter, [4])).toEqual([false]);
    limiter.configure({ algorithm: 'token-bucket' });
    expect(allowedAt(limiter, [5, 6, 7, 8])).toEqual([true, true, true, false]);
    limiter.configure({ windowMs: 2_000 });
    expect(allowedAt(limiter, [9, 10, 11, 12])).toEqual([true, true, true, false]);
    limiter.configure(false);
    expect(allowedAt(limiter, [13, 14, 15, 16, 17])).toEqual([true, true, true, true, true]);
    limiter.configure({ limit: 1 });
    expect(limiter.config).toMatchObject({ ...DEFAULT_RATE_LIMIT, limit: 1 });
  });

  it('defaults to 25 per minute on a sliding log, without Retry-After', () => {
    expect(resolveRateLimit(undefined)).toEqual({
      limit: 25,
      windowMs: 60_000,
      algorithm: 'sliding-log',
      retryAfter: false,
      countRejected: false,
    });
    expect(() => resolveRateLimit({ limit: 0 })).toThrow(RangeError);
    expect(() => resolveRateLimit({ windowMs: 0 })).toThrow(RangeError);
  });
});
