import { describe, expect, it } from 'vitest';
import type { RateLimitAlgorithm } from '../../../local/sandbox/types.js';
import { callSandbox, withSandbox } from '../../support/sandbox.js';

const ALGORITHMS: RateLimitAlgorithm[] = ['fixed-window', 'sliding-log', 'token-bucket'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 5 per window stands for 25 per minute. The burst goes out at once, so it lands well inside one window
// even on a loaded machine; the assertions are on counts, with generous slack on times. The token bucket
// refills continuously, so its window is longer (one token per 600 ms) to keep the burst inside it.
const LIMIT = 5;
const WINDOW_MS: Record<RateLimitAlgorithm, number> = {
  'fixed-window': 1_000,
  'sliding-log': 1_000,
  'token-bucket': 3_000,
};
/** How long until at least one request is allowed again after a full burst. */
const FREED_AFTER_MS: Record<RateLimitAlgorithm, number> = {
  'fixed-window': 1_000,
  'sliding-log': 1_000,
  'token-bucket': 600,
};

describe.each(ALGORITHMS)('rate limit, %s', (algorithm) => {
  it('answers the N+1st request in a window with 429 and JSON, then frees the window', async () => {
    await withSandbox({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS[algorithm], algorithm } }, async (sandbox) => {
      const burst = await Promise.all(
        Array.from({ length: LIMIT + 1 }, () => callSandbox(sandbox, 'GET', '/v1/me').then((a) => a.status)),
      );
      expect(burst.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(burst.filter((s) => s === 429)).toHaveLength(1);
      const rejected = await callSandbox(sandbox, 'GET', '/v1/me');
      expect(rejected.status).toBe(429);
      expect(rejected.json).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('5') });
      expect(rejected.headers.get('retry-after')).toBeNull();
      await sleep(FREED_AFTER_MS[algorithm] + 250);
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(200);
      expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(2);
    });
  });

  it('counts per token, and 401s count for nobody', async () => {
    await withSandbox({ rateLimit: { limit: 2, windowMs: 5_000, algorithm } }, async (sandbox) => {
      for (let i = 0; i < 4; i += 1)
        expect((await callSandbox(sandbox, 'GET', '/v1/me', { token: 'x' })).status).toBe(401);
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(200);
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(200);
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(429);
      const reader = { token: sandbox.readOnlyToken };
      expect((await callSandbox(sandbox, 'GET', '/v1/me', reader)).status).toBe(200);
    });
  });
});

describe('rate-limit options', () => {
  it('sends Retry-After in whole seconds when asked', async () => {
    await withSandbox({ rateLimit: { limit: 1, windowMs: 2_500, retryAfter: true } }, async (sandbox) => {
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).headers.get('retry-after')).toBeNull();
      const rejected = await callSandbox(sandbox, 'GET', '/v1/me');
      expect(rejected.status).toBe(429);
      expect(Number(rejected.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(rejected.headers.get('retry-after'))).toBeLessThanOrEqual(3);
    });
  });

  it('applies the default of 25 per minute', async () => {
    await withSandbox({}, async (sandbox) => {
      const statuses = await Promise.all(
        Array.from({ length: 26 }, () => callSandbox(sandbox, 'GET', '/v1/me').then((a) => a.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(25);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    });
  });

  it('changes live: a lowered limit bites at once, false switches it off', async () => {
    await withSandbox({ rateLimit: { limit: 10, windowMs: 5_000, algorithm: 'fixed-window' } }, async (sandbox) => {
      for (let i = 0; i < 4; i += 1) expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(200);
      sandbox.setRateLimit({ limit: 3 });
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(429);
      sandbox.setRateLimit(false);
      for (let i = 0; i < 12; i += 1) expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(200);
      sandbox.setRateLimit({ limit: 2, windowMs: 5_000 });
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(200);
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(200);
      expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(429);
    });
  });

  it('with countRejected, a client that keeps hammering a sliding log stays locked out', async () => {
    const windowMs = 1_000;
    for (const countRejected of [false, true]) {
      await withSandbox(
        { rateLimit: { limit: 2, windowMs, algorithm: 'sliding-log', countRejected } },
        async (sandbox) => {
          await callSandbox(sandbox, 'GET', '/v1/me');
          await callSandbox(sandbox, 'GET', '/v1/me');
          await sleep(windowMs / 2);
          // Two more rejected calls half-way through the window.
          expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(429);
          expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(429);
          await sleep(windowMs * 0.7);
          // The first two left the log; only counted rejections still fill it.
          expect((await callSandbox(sandbox, 'GET', '/v1/me')).status).toBe(countRejected ? 429 : 200);
        },
      );
    }
  });
});
