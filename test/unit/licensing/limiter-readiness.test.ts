/** Redis readiness (limiter-readiness.ts) on a fake clock. */
import { describe, expect, it } from 'vitest';
import { createReadiness } from '../../../src/kernel/licensing/limiter/limiter-readiness.js';
import { createFakeClock, turn } from '../../support/limiter-fake-clock.js';

function readiness(setup: Promise<void> | undefined, down = false) {
  const clock = createFakeClock();
  const state = { down };
  const r = createReadiness({
    setup,
    clock,
    timeoutMs: 3_000,
    isDown: () => state.down,
    unavailable: () => new Error('Redis unreachable'),
    timedOut: (ms) => new Error(`no answer within ${ms} ms`),
  });
  return { r, clock, state };
}

describe('Redis readiness', () => {
  it('without Redis, ready at once', async () => {
    const { r } = readiness(undefined);
    expect(r.isReady()).toBe(true);
    await expect(r.whenReady()).resolves.toBeUndefined();
  });

  it('a job waits for the set-up, then goes', async () => {
    let finish: () => void = () => {};
    const { r, clock } = readiness(new Promise<void>((resolve) => (finish = resolve)));
    const waiting = r.whenReady();
    clock.advance(2_999);
    finish();
    await expect(waiting).resolves.toBeUndefined();
    expect(r.isReady()).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  it('a Redis that never answers: refused after the timeout on the clock, with a clear reason', async () => {
    const { r, clock } = readiness(new Promise<void>(() => {}));
    let refused = false;
    const waiting = r.whenReady().catch((e: unknown) => {
      refused = true;
      return e;
    });
    clock.advance(2_999);
    await turn();
    expect(refused).toBe(false);
    clock.advance(1);
    expect(String(await waiting)).toContain('no answer within 3000 ms');
  });

  it('while Redis is known to be down, refused at once', async () => {
    const { r, state } = readiness(new Promise<void>(() => {}), true);
    await expect(r.whenReady()).rejects.toThrow('Redis unreachable');
    state.down = false;
    expect(r.isReady()).toBe(false);
  });
});
