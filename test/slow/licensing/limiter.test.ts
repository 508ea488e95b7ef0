/**
 * The bottleneck limiter against the sandbox over real HTTP, with the window scaled down (25 per 1.2 s
 * stands for 25 per minute). Requests are plain undici calls scheduled through the limiter, with 429s
 * retried through it (test/support/limiter-worker.ts), so these tests do not depend on the client core.
 * The cases run concurrently, each with its own sandbox, to keep the wall time short.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, type SandboxRateLimit, startSandbox } from '../../../local/sandbox/index.js';
import { createBottleneckLimiter } from '../../../src/kernel/licensing/limiter/limiter-bottleneck.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { sendThroughLimiter } from '../../support/limiter-worker.js';
import { maxInRollingWindow } from '../../support/rolling-window.js';

const LIMIT = 25;
const WINDOW_MS = 1_200;
const MARGIN_MS = 50;
/** Server timestamps and timers may disagree by a millisecond or two at the window's edge. */
const EDGE_MS = 5;

const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

async function sandboxWith(rateLimit: Partial<SandboxRateLimit>): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    seed: 'demo',
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, retryAfter: false, countRejected: false, ...rateLimit },
  });
  sandboxes.push(sandbox);
  return sandbox;
}

describe.concurrent('bottleneck limiter against the sandbox', () => {
  for (const algorithm of ['fixed-window', 'sliding-log', 'token-bucket'] as const) {
    it(`sends 200 requests with 0 × 429 against a ${algorithm} server`, async () => {
      const sandbox = await sandboxWith({ algorithm });
      const limiter = createBottleneckLimiter({
        limit: LIMIT,
        windowMs: WINDOW_MS,
        marginMs: MARGIN_MS,
        reservedInteractive: 5,
        maxQueue: 500,
      });
      try {
        /** The slowest request, sent to answered, as this (possibly loaded) machine runs them. */
        let slowest = 0;
        const t0 = Date.now();
        const results = await Promise.all(
          Array.from({ length: 200 }, () => {
            let sentAt = 0;
            return sendThroughLimiter(limiter, {
              url: sandbox.url,
              token: sandbox.adminToken,
              windowMs: WINDOW_MS,
              onSent: (at) => {
                sentAt = at;
              },
              onResponse: (at) => {
                slowest = Math.max(slowest, at - sentAt);
              },
            });
          }),
        );
        const makespan = Date.now() - t0;
        expect(results.every((r) => r.status === 200 && r.attempts === 1)).toBe(true);
        const statuses = sandbox.requests.map((r) => r.status);
        expect(statuses.filter((s) => s === 429)).toHaveLength(0);
        expect(statuses).toHaveLength(200);
        expect(
          maxInRollingWindow(
            sandbox.requests.map((r) => r.at),
            WINDOW_MS - EDGE_MS,
          ),
        ).toBeLessThanOrEqual(LIMIT);
        // 8 bursts, 7 held windows between them; a slot is held from its answer on, so each burst also
        // costs the time its requests take. Not much slower than that: the allowance grows with the
        // request latency measured on this (possibly loaded) machine, not with a guess of it.
        expect(makespan).toBeGreaterThanOrEqual(7 * WINDOW_MS);
        expect(makespan).toBeLessThan(7 * (WINDOW_MS + MARGIN_MS) + 8 * slowest + 3_000);
      } finally {
        await limiter.stop();
      }
    });
  }

  it('adapts when the server lowers its limit mid-run, and every request eventually succeeds', async () => {
    const windowMs = 1_000;
    const sandbox = await sandboxWith({ algorithm: 'sliding-log', windowMs });
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
    const limiter = createBottleneckLimiter({
      limit: LIMIT,
      windowMs,
      marginMs: MARGIN_MS,
      reservedInteractive: 5,
      maxQueue: 500,
      logger,
    });
    try {
      let answered = 0;
      const results = await Promise.all(
        Array.from({ length: 110 }, () =>
          sendThroughLimiter(limiter, {
            url: sandbox.url,
            token: sandbox.adminToken,
            windowMs,
            maxAttempts: 10,
            onResponse: () => {
              answered++;
              // The real service's limit "may change over time".
              if (answered === 30) sandbox.setRateLimit({ limit: 10 });
            },
          }),
        ),
      );
      expect(results.filter((r) => r.status !== 200)).toEqual([]);
      const rejected = sandbox.requests.filter((r) => r.status === 429).length;
      const ok = sandbox.requests.filter((r) => r.status === 200).length;
      expect(ok).toBe(110);
      // A few 429s while it learns the new limit, not a storm (ratelimit.md measured 17–18).
      expect(rejected).toBeGreaterThan(0);
      expect(rejected).toBeLessThan(60);
      expect(limiter.stats().currentLimit).toBeLessThan(LIMIT);
      expect(limiter.stats().currentLimit).toBeGreaterThanOrEqual(1);
      expect(warnings.some((w) => /lowering the limit from \d+ to \d+/.test(w))).toBe(true);
    } finally {
      await limiter.stop();
    }
  });
});
