/** Shedding and wait estimates (limiter-queue.ts). */
import { describe, expect, it } from 'vitest';
import { QueueFullError } from '../../../src/kernel/licensing/errors.js';
import { createWaitQueue } from '../../../src/kernel/licensing/limiter/limiter-queue.js';
import type { Priority } from '../../../src/kernel/licensing/limiter.js';

const queueOf = (maxQueue: number, limit = 5) =>
  createWaitQueue<{ priority: Priority }>({
    maxQueue,
    limit: () => limit,
    backgroundCap: (l) => Math.max(1, l - 2),
    holdMs: 1_000,
  });

describe('the wait queue', () => {
  it('refuses one job past maxQueue with an honest "try again in", and has room again once one leaves', () => {
    const queue = queueOf(3, 1);
    const jobs = [0, 1, 2].map(() => ({ priority: 'interactive' as const }));
    for (const job of jobs) {
      expect(queue.refusal()).toBeUndefined();
      queue.enter(job);
    }
    const refusal = queue.refusal();
    expect(refusal).toBeInstanceOf(QueueFullError);
    // Three waiting at one per second.
    expect(refusal?.retryInSec).toBe(3);
    expect(refusal?.message).toContain('try again in about 3 s');
    queue.leave(jobs[0] as { priority: Priority });
    queue.leave(jobs[0] as { priority: Priority });
    expect(queue.waiting()).toBe(2);
    expect(queue.refusal()).toBeUndefined();
  });

  it('estimates: a free slot costs only the pause; a queue costs held windows; a person does not count background work ahead', () => {
    const queue = queueOf(100);
    expect(queue.estimateWaitMs('interactive', { held: 0, pauseLeftMs: 0 })).toBe(0);
    expect(queue.estimateWaitMs('background', { held: 2, pauseLeftMs: 250 })).toBe(250);
    for (let i = 0; i < 6; i++) queue.enter({ priority: 'background' });
    // Every slot taken: 6 background jobs ahead at 3 background slots per window.
    expect(queue.estimateWaitMs('background', { held: 5, pauseLeftMs: 0 })).toBe(3_000);
    // A person only waits behind other people: the next window.
    expect(queue.estimateWaitMs('interactive', { held: 5, pauseLeftMs: 0 })).toBe(1_000);
    expect(queue.entries()).toHaveLength(6);
  });

  it('estimates from when the held slots come free: a spent window costs what is left of it', () => {
    const queue = queueOf(100);
    // Five slots held, the soonest free in 400 ms: the next person waits 400 ms, not a whole window.
    expect(queue.estimateWaitMs('interactive', { held: 5, pauseLeftMs: 0, freeInMs: [400, 600, 900, 900, 990] })).toBe(
      400,
    );
    queue.enter({ priority: 'interactive' });
    expect(queue.estimateWaitMs('interactive', { held: 5, pauseLeftMs: 0, freeInMs: [400, 600, 900, 900, 990] })).toBe(
      600,
    );
    // A pause longer than the hold wins; slots in flight (no hold yet) fall back to whole windows.
    expect(queue.estimateWaitMs('interactive', { held: 5, pauseLeftMs: 700, freeInMs: [400, 600] })).toBe(700);
    expect(queue.estimateWaitMs('interactive', { held: 5, pauseLeftMs: 0, freeInMs: [] })).toBe(1_000);
  });
});
