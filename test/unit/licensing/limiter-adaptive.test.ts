import { describe, expect, it } from 'vitest';
import { createAdaptiveLimit, PROBE_AFTER_WINDOWS } from '../../../src/kernel/licensing/limiter/limiter-adaptive.js';

function setup(configured = 25, windowMs = 1_000) {
  let t = 10_000;
  const limit = createAdaptiveLimit({ configured, windowMs, now: () => t });
  return { limit, advance: (ms: number) => (t += ms) };
}

describe('adaptive limit (ratelimit.md, "429s and a limit that changes")', () => {
  it('lowers to what the server accepted in the last window when that is above half', () => {
    const { limit, advance } = setup(25);
    for (let i = 0; i < 18; i++) limit.recordSuccess();
    advance(10);
    expect(limit.recordRateLimited()).toEqual({ from: 25, to: 18 });
    expect(limit.current()).toBe(18);
  });

  it('halves when the server accepted little, and always lowers by at least one', () => {
    const { limit, advance } = setup(25);
    expect(limit.recordRateLimited()).toEqual({ from: 25, to: 12 });
    advance(1_000);
    for (let i = 0; i < 12; i++) limit.recordSuccess();
    // 12 successes do not keep the limit at 12: a 429 means one less at least.
    expect(limit.recordRateLimited()).toEqual({ from: 12, to: 11 });
  });

  it('forgets successes older than a window', () => {
    const { limit, advance } = setup(25);
    for (let i = 0; i < 20; i++) limit.recordSuccess();
    advance(1_001);
    expect(limit.recordRateLimited()).toEqual({ from: 25, to: 12 });
  });

  it('lowers at most once per window and never below 1', () => {
    const { limit, advance } = setup(4);
    expect(limit.recordRateLimited()).toEqual({ from: 4, to: 2 });
    advance(500);
    expect(limit.recordRateLimited()).toBeUndefined();
    advance(500);
    expect(limit.recordRateLimited()).toEqual({ from: 2, to: 1 });
    advance(1_000);
    expect(limit.recordRateLimited()).toBeUndefined();
    expect(limit.current()).toBe(1);
  });

  it(`probes +1 after ${PROBE_AFTER_WINDOWS} windows without a 429, never above the configured limit`, () => {
    const { limit, advance } = setup(4);
    limit.recordRateLimited();
    expect(limit.current()).toBe(2);
    advance(PROBE_AFTER_WINDOWS * 1_000 - 1);
    expect(limit.maybeProbe()).toBeUndefined();
    advance(1);
    expect(limit.maybeProbe()).toEqual({ from: 2, to: 3 });
    // The next step needs another quiet stretch.
    advance(1_000);
    expect(limit.maybeProbe()).toBeUndefined();
    advance(PROBE_AFTER_WINDOWS * 1_000);
    expect(limit.maybeProbe()).toEqual({ from: 3, to: 4 });
    advance(PROBE_AFTER_WINDOWS * 1_000);
    expect(limit.maybeProbe()).toBeUndefined();
    expect(limit.current()).toBe(4);
  });

  it('a 429 restarts the quiet stretch', () => {
    const { limit, advance } = setup(10);
    limit.recordRateLimited();
    advance(4 * 1_000);
    limit.recordRateLimited();
    advance(PROBE_AFTER_WINDOWS * 1_000 - 1);
    expect(limit.maybeProbe()).toBeUndefined();
  });
});
