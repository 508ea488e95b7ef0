/** The 429 policy on an injected clock: what one 429 costs, and when 429s escalate. */
import { describe, expect, it } from 'vitest';
import {
  createBackoffPolicy,
  LOWER_FROM_COUNT,
  LOWER_WITHIN_WINDOWS,
} from '../../../src/kernel/licensing/limiter/limiter-backoff.js';

/** A minute window, as in production: the first pause is 3 s. */
const W = 60_000;

function setup(random = () => 0) {
  let t = 1_000_000;
  const policy = createBackoffPolicy({ windowMs: W, now: () => t, random });
  const under = { ownSendsInWindow: 10, limit: 25 };
  return {
    policy,
    at: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    /** A 429 for a request sent just now. */
    fresh: (retryAfterMs?: number, extra = under) => policy.onRateLimited({ sentAt: t, retryAfterMs, ...extra }),
  };
}

describe('429 policy', () => {
  it('one 429 without Retry-After costs a pause of a twentieth of the window, then one probe', () => {
    const { policy, advance, fresh, at } = setup();
    expect(policy.gate()).toEqual({ state: 'open' });
    expect(fresh()).toEqual({ fresh: true, level: 1, recent: 1, pauseMs: 3_000, lower: false });
    expect(policy.gate()).toEqual({ state: 'paused', untilMs: at() + 3_000 });
    advance(3_000);
    expect(policy.gate()).toEqual({ state: 'probing' });
    // The probe went out after the decision and came back without a 429: full pace again.
    expect(policy.onSuccess(at() - 10)).toBe(true);
    expect(policy.gate()).toEqual({ state: 'open' });
    expect(policy.level()).toBe(0);
  });

  it('Retry-After, when the server sends one, is the pause', () => {
    const { policy, fresh, at } = setup();
    expect(fresh(7_000).pauseMs).toBe(7_000);
    expect(policy.gate()).toEqual({ state: 'paused', untilMs: at() + 7_000 });
  });

  it('the rest of a burst that was already on its way costs nothing more', () => {
    const { policy, advance, at } = setup();
    const burstSentAt = at();
    advance(20);
    const first = policy.onRateLimited({ sentAt: burstSentAt, ownSendsInWindow: 25, limit: 25 });
    expect(first.level).toBe(1);
    advance(50);
    for (let i = 0; i < 24; i++) {
      const late = policy.onRateLimited({ sentAt: burstSentAt, ownSendsInWindow: 25, limit: 25 });
      expect(late).toMatchObject({ fresh: false, level: 0, recent: 0, lower: false });
      expect(late.pauseMs).toBe(3_000 - 50);
    }
    expect(policy.level()).toBe(1);
    // A success of a request of that same burst says nothing about now either.
    expect(policy.onSuccess(burstSentAt)).toBe(false);
    expect(policy.gate().state).toBe('paused');
  });

  it('429s that repeat double the pause up to a window, with at most a quarter of jitter', () => {
    const { fresh, advance } = setup(() => 1);
    const pauses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const decision = fresh();
      pauses.push(decision.pauseMs);
      advance(decision.pauseMs);
    }
    expect(pauses).toEqual([3_000, 7_500, 15_000, 30_000, 60_000, 75_000, 75_000]);
  });

  it(`lowers the limit only from the ${LOWER_FROM_COUNT}rd 429 in a row, and only while under our own limit`, () => {
    const { fresh, advance } = setup();
    const decisions = [];
    for (let i = 0; i < 4; i++) {
      const decision = fresh();
      decisions.push(decision.lower);
      advance(decision.pauseMs);
    }
    expect(decisions).toEqual([false, false, true, true]);

    // At our own limit, a refusal may be a disagreement at the window's edge: pause longer, keep the limit.
    const atLimit = setup();
    for (let i = 0; i < 4; i++) {
      const decision = atLimit.fresh(undefined, { ownSendsInWindow: 25, limit: 25 });
      expect(decision.lower).toBe(false);
      atLimit.advance(decision.pauseMs);
    }
  });

  it('a success in between starts the next 429 from the short pause again', () => {
    const { policy, fresh, advance, at } = setup();
    advance(fresh().pauseMs);
    expect(policy.level()).toBe(1);
    expect(policy.onSuccess(at())).toBe(true);
    advance(1_000);
    expect(fresh()).toMatchObject({ level: 1, recent: 2, pauseMs: 3_000, lower: false });
  });

  it(`single 429s that come back every window (a server limit just below ours) lower it at the ${LOWER_FROM_COUNT}rd`, () => {
    const { policy, fresh, advance, at } = setup();
    const lowered = [];
    for (let i = 0; i < LOWER_FROM_COUNT; i++) {
      const decision = fresh();
      expect(decision.level).toBe(1);
      lowered.push(decision.lower);
      advance(decision.pauseMs);
      policy.onSuccess(at());
      advance(W - decision.pauseMs);
    }
    expect(lowered).toEqual([false, false, true]);
    // Spread wider than that, they are incidents, not a pattern.
    const sparse = setup();
    for (let i = 0; i < 5; i++) {
      expect(sparse.fresh().lower).toBe(false);
      sparse.advance(LOWER_WITHIN_WINDOWS * W);
      sparse.policy.onSuccess(sparse.at());
    }
  });

  it('a window-sized first pause is never zero', () => {
    const policy = createBackoffPolicy({ windowMs: 10, now: () => 0 });
    expect(policy.onRateLimited({ sentAt: 0, ownSendsInWindow: 0, limit: 1 }).pauseMs).toBe(1);
  });
});
