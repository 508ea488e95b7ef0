/**
 * createBottleneckLimiter on its own, on a fake clock (test/support/limiter-fake-clock.ts): its own timers (holds,
 * pauses) and the stub requests run on it, so nothing sleeps; bottleneck's internal turns of the event
 * loop stay real (global fake timers hang it, see design.md section 4), and `drive` waits for them before
 * it moves the clock. fn is a tiny counting stub that records when each job started, in fake ms.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QueueFullError } from '../../../src/kernel/licensing/errors.js';
import {
  type BottleneckLimiterOptions,
  type BottleneckRateLimiter,
  createBottleneckLimiter,
} from '../../../src/kernel/licensing/limiter/limiter-bottleneck.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createFakeClock, drive, elapse, type FakeClock } from '../../support/limiter-fake-clock.js';
import { maxInRollingWindow } from '../../support/rolling-window.js';

const W = 300;
const MARGIN = 20;
/** Kept from the real-clock version of these tests; on the fake clock every time is exact. */
const EDGE_MS = 3;

interface Logged {
  level: string;
  message: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLogger(): Logger & { lines: Logged[] } {
  const lines: Logged[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, fields });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const limiters: { limiter: BottleneckRateLimiter; clock: FakeClock }[] = [];
afterEach(async () => {
  for (const { limiter, clock } of limiters.splice(0)) await drive(clock, limiter, limiter.stop());
});

/** The limiter under test, its fake clock, and the helpers bound to them. */
let clock: FakeClock;
let current: BottleneckRateLimiter;
const sleep = (ms: number) => clock.sleep(ms);
/** Runs the limiter on the fake clock until `promise` settles. */
const until = <T>(promise: Promise<T>) => drive(clock, current, promise);
/** The test waits `ms` on the fake clock while the limiter works. */
const wait = (ms: number) => elapse(clock, current, ms);

function make(overrides: Partial<BottleneckLimiterOptions> = {}): BottleneckRateLimiter {
  clock = createFakeClock();
  const limiter = createBottleneckLimiter({
    limit: 5,
    windowMs: W,
    marginMs: MARGIN,
    reservedInteractive: 2,
    maxQueue: 100,
    clock,
    ...overrides,
  });
  current = limiter;
  limiters.push({ limiter, clock });
  return limiter;
}

/** A stub "request": records its start time, takes `latencyMs`, returns its label. */
function counter(t0 = clock.now()) {
  const starts: { label: string; at: number }[] = [];
  const job =
    (label: string, latencyMs = 5) =>
    async () => {
      starts.push({ label, at: clock.now() - t0 });
      await sleep(latencyMs);
      return label;
    };
  return { starts, job, times: () => starts.map((s) => s.at) };
}

describe('createBottleneckLimiter: held slots', () => {
  it('never starts more than the limit in any rolling window', async () => {
    const limiter = make();
    const { job, times } = counter();
    const labels = Array.from({ length: 17 }, (_, i) => `r${i}`);
    const results = await until(
      Promise.all(labels.map((label, i) => limiter.schedule('interactive', job(label, (i * 7) % 40)))),
    );
    expect(results).toEqual(labels);
    expect(maxInRollingWindow(times(), W - EDGE_MS)).toBeLessThanOrEqual(5);
    // And it does not wait much longer than it must: 17 at 5 per window is 4 windows at least.
    const last = Math.max(...times());
    expect(last).toBeGreaterThanOrEqual(3 * W);
    expect(last).toBeLessThan(3 * (W + MARGIN + 40) + 500);
  });

  it('sends a burst at once after idle, and resolves the caller before the slot is released', async () => {
    // A long window, so that "at once" (well under half a window) and "waited for a window" stay far
    // apart even on a loaded machine.
    const LONG = 1000;
    const limiter = make({ windowMs: LONG });
    const t0 = clock.now();
    const { starts, job, times } = counter(t0);
    const first = await until(
      Promise.all(Array.from({ length: 5 }, (_, i) => limiter.schedule('interactive', job(`a${i}`)))),
    );
    expect(first).toHaveLength(5);
    expect(Math.max(...times())).toBeLessThan(LONG / 2);
    // All five callers have their answers while all five slots are still held for the window.
    expect(limiter.stats()).toMatchObject({ running: 5, queued: 0, currentLimit: 5, configuredLimit: 5 });
    // After a quiet window the slots are free again: the next burst is instant too.
    await wait(LONG + MARGIN);
    expect(limiter.stats().running).toBe(0);
    const t1 = clock.now() - t0;
    // Background work bursts too, up to its cap (limit − reservedInteractive), and the rest is interactive.
    await until(
      Promise.all([
        ...Array.from({ length: 3 }, (_, i) => limiter.schedule('background', job(`b${i}`, 0))),
        ...Array.from({ length: 2 }, (_, i) => limiter.schedule('interactive', job(`c${i}`, 0))),
      ]),
    );
    const second = starts.filter((s) => /^[bc]/.test(s.label)).map((s) => s.at - t1);
    expect(second).toHaveLength(5);
    expect(Math.max(...second)).toBeLessThan(LONG / 2);
  });

  it('passes fn errors to the caller and still counts that request against the window', async () => {
    const limiter = make({ limit: 2 });
    const { job, times } = counter();
    const failing = limiter.schedule('interactive', async () => {
      throw new Error('boom');
    });
    await expect(until(failing)).rejects.toThrow('boom');
    await until(Promise.all([limiter.schedule('interactive', job('x')), limiter.schedule('interactive', job('y'))]));
    // Only one slot was left after the failure, so 'y' had to wait for the failed request's window.
    expect(Math.max(...times())).toBeGreaterThanOrEqual(W + MARGIN - EDGE_MS);
  });
});

describe('createBottleneckLimiter: priorities', () => {
  it('an interactive request overtakes a queue of background work at once', async () => {
    const limiter = make({ limit: 5, reservedInteractive: 2 });
    const t0 = clock.now();
    const { starts, job } = counter(t0);
    const background = Array.from({ length: 12 }, (_, i) => limiter.schedule('background', job(`bg${i}`)));
    await wait(30);
    const interactive = await until(limiter.schedule('interactive', job('person')));
    expect(interactive).toBe('person');
    const person = starts.find((s) => s.label === 'person');
    // It found a reserved slot: no window to wait, only scheduling latency.
    expect(person?.at).toBeLessThan(W / 2);
    expect(starts.filter((s) => s.label.startsWith('bg') && s.at < (person?.at ?? 0))).toHaveLength(3);
    await until(Promise.all(background));
  });

  it('background work never takes the reserved slots', async () => {
    const limiter = make({ limit: 5, reservedInteractive: 2 });
    const { starts, job } = counter();
    await until(Promise.all(Array.from({ length: 9 }, (_, i) => limiter.schedule('background', job(`bg${i}`)))));
    const bgTimes = starts.map((s) => s.at);
    expect(maxInRollingWindow(bgTimes, W - EDGE_MS)).toBeLessThanOrEqual(3);
  });

  it('when every slot is taken, queued interactive work starts before queued background work', async () => {
    const limiter = make({ limit: 3, reservedInteractive: 1 });
    const { starts, job } = counter();
    await until(Promise.all(Array.from({ length: 3 }, (_, i) => limiter.schedule('interactive', job(`fill${i}`, 0)))));
    const pending: Promise<string>[] = [];
    for (let i = 0; i < 3; i++) pending.push(limiter.schedule('background', job(`bg${i}`, 0)));
    await wait(10);
    for (let i = 0; i < 2; i++) pending.push(limiter.schedule('interactive', job(`person${i}`, 0)));
    await until(Promise.all(pending));
    const order = starts.slice(3).map((s) => s.label);
    expect(order.slice(0, 2).sort()).toEqual(['person0', 'person1']);
  });
});

describe('createBottleneckLimiter: bounded queue', () => {
  it('rejects past maxQueue with QueueFullError and an honest estimate', async () => {
    const limiter = make({ limit: 1, windowMs: 1_000, marginMs: 0, maxQueue: 3 });
    // The first request holds the only slot for a second once it has been sent.
    await until(limiter.schedule('interactive', async () => 'first'));
    const queued = [1, 2, 3].map((i) => limiter.schedule('interactive', async () => `q${i}`));
    const settled = Promise.allSettled(queued);
    expect(limiter.stats().queued).toBe(3);
    // Three ahead at one per second: about three seconds.
    expect(limiter.estimateWaitMs('interactive')).toBeGreaterThanOrEqual(3_000);
    const overflow = limiter.schedule('interactive', async () => 'too many');
    await expect(overflow).rejects.toBeInstanceOf(QueueFullError);
    const error = await overflow.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueFullError);
    if (error instanceof QueueFullError) {
      expect(error.retryInSec).toBe(3);
      expect(error.message).toContain('try again in about 3 s');
    }
    await until(limiter.stop());
    await settled;
  });

  it('estimates zero when a slot is free', () => {
    const limiter = make();
    expect(limiter.estimateWaitMs('interactive')).toBe(0);
    expect(limiter.estimateWaitMs('background')).toBe(0);
  });
});

describe('createBottleneckLimiter: 429s', () => {
  const fresh = (retryAfterMs?: number) => ({ sentAt: clock.now(), retryAfterMs });

  it('pauses every new start for Retry-After, then lets one probe through at a time', async () => {
    const limiter = make();
    const t0 = clock.now();
    const { starts, job } = counter(t0);
    expect(limiter.onRateLimited(fresh(250))).toBe(250);
    expect(limiter.estimateWaitMs('interactive')).toBeGreaterThan(200);
    await until(
      Promise.all([limiter.schedule('background', job('b', 20)), limiter.schedule('interactive', job('a', 20))]),
    );
    expect(Math.min(...starts.map((s) => s.at))).toBeGreaterThanOrEqual(250 - EDGE_MS);
    // Nobody reported a success, so they went one at a time, the person first.
    expect(starts.map((s) => s.label)).toEqual(['a', 'b']);
    const [a, b] = starts;
    expect((b?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(20 - EDGE_MS);
  });

  it('after a single 429 the first pause is short, and a successful probe releases everyone at once', async () => {
    const limiter = make({ limit: 10, windowMs: 10_000, firstPauseMs: 100 });
    const t0 = clock.now();
    const { starts } = counter(t0);
    expect(limiter.onRateLimited(fresh())).toBe(100);
    const run = (label: string) =>
      limiter.schedule('interactive', async () => {
        const sentAt = clock.now();
        starts.push({ label, at: sentAt - t0 });
        await sleep(5);
        limiter.onSuccess(sentAt);
        return label;
      });
    await until(Promise.all(Array.from({ length: 6 }, (_, i) => run(`r${i}`))));
    const times = starts.map((s) => s.at).sort((x, y) => x - y);
    expect(times[0]).toBeGreaterThanOrEqual(100 - EDGE_MS);
    // Far less than the 10 s window: the pause was short and the rest followed the probe at once.
    expect(Math.max(...times)).toBeLessThan(2_000);
    expect(limiter.stats()).toMatchObject({ currentLimit: 10, configuredLimit: 10 });
  });

  it('pauses jobs that were already queued, without spending their slots', async () => {
    const limiter = make({ limit: 4 });
    const t0 = clock.now();
    const { starts, job } = counter(t0);
    const pending = Array.from({ length: 6 }, (_, i) => limiter.schedule('interactive', job(`r${i}`, 0)));
    await wait(20);
    for (let i = 0; i < 4; i++) limiter.onSuccess();
    limiter.onRateLimited(fresh(100));
    await until(Promise.all(pending));
    const late = starts.filter((s) => s.label === 'r4' || s.label === 'r5');
    expect(late).toHaveLength(2);
    // r4 and r5 waited for the held slots (a window) and not for the pause as well.
    for (const s of late) expect(s.at).toBeLessThan(W + MARGIN + 200);
    expect(limiter.stats().currentLimit).toBe(4);
  });

  it('a 429 for a request sent before the pause was decided changes nothing', () => {
    const logger = recordingLogger();
    const limiter = make({ limit: 4, firstPauseMs: 1_000, logger });
    const sentAt = clock.now() - 5;
    expect(limiter.onRateLimited({ sentAt })).toBe(1_000);
    // The rest of the same burst: no longer pause, no escalation, no log line.
    for (let i = 0; i < 3; i++) expect(limiter.onRateLimited({ sentAt })).toBeLessThanOrEqual(1_000);
    expect(logger.lines.filter((l) => l.message.includes('429'))).toHaveLength(1);
    expect(limiter.stats().currentLimit).toBe(4);
  });

  it('lowers its limit only when 429s repeat while under it (logging it), and enforces it', async () => {
    const logger = recordingLogger();
    const limiter = make({ limit: 4, firstPauseMs: 1, logger });
    for (let i = 0; i < 3; i++) limiter.onSuccess();
    limiter.onRateLimited(fresh());
    limiter.onRateLimited(fresh());
    expect(limiter.stats().currentLimit).toBe(4);
    limiter.onRateLimited(fresh());
    expect(limiter.stats()).toMatchObject({ currentLimit: 3, configuredLimit: 4 });
    const warning = logger.lines.find((l) => l.level === 'warn' && l.message.includes('lowering'));
    expect(warning?.message).toContain('from 4 to 3');
    expect(warning?.fields).toMatchObject({ from: 4, to: 3 });
    expect(logger.lines.filter((l) => l.message.includes('429'))).toHaveLength(3);

    await wait(50);
    const { times, job } = counter();
    // The probe goes through: back to full pace at the lowered limit.
    await until(
      limiter.schedule('interactive', async () => {
        const sentAt = clock.now();
        await job('probe', 0)();
        limiter.onSuccess(sentAt);
      }),
    );
    await until(Promise.all(Array.from({ length: 6 }, (_, i) => limiter.schedule('interactive', job(`r${i}`, 0)))));
    expect(maxInRollingWindow(times(), W - EDGE_MS)).toBeLessThanOrEqual(3);
  });

  it('probes one step back up after five quiet windows', async () => {
    const logger = recordingLogger();
    const limiter = make({ limit: 4, windowMs: 40, marginMs: 0, firstPauseMs: 1, logger });
    for (let i = 0; i < 3; i++) limiter.onRateLimited(fresh());
    expect(limiter.stats().currentLimit).toBe(2);
    await wait(5 * 40 + 20);
    limiter.onSuccess();
    expect(limiter.stats().currentLimit).toBe(3);
    expect(logger.lines.some((l) => l.level === 'info' && l.message.includes('from 2 to 3'))).toBe(true);
  });
});

describe('createBottleneckLimiter: stop()', () => {
  it('waits for running requests, rejects waiting ones, and does not wait for held slots', async () => {
    const limiter = make({ limit: 1, windowMs: 5_000 });
    let finished = false;
    const running = limiter.schedule('interactive', async () => {
      await sleep(50);
      finished = true;
      return 'done';
    });
    const waiting = limiter.schedule('background', async () => 'never');
    // Observe the rejection before stop() causes it, so it never counts as unhandled.
    const waitingOutcome = waiting.catch((e: unknown) => e);
    await wait(10);
    const t0 = clock.now();
    await until(limiter.stop());
    expect(finished).toBe(true);
    expect(clock.now() - t0).toBeLessThan(1_000);
    await expect(running).resolves.toBe('done');
    expect(String(await waitingOutcome)).toMatch(/stopped/);
    await expect(limiter.schedule('interactive', async () => 'late')).rejects.toThrow(/stopped/);
  });

  it('rejects jobs parked by a pause', async () => {
    const limiter = make();
    limiter.onRateLimited({ sentAt: clock.now(), retryAfterMs: 10_000 });
    const parked = limiter.schedule('interactive', async () => 'never').catch((e: unknown) => e);
    await wait(20);
    await until(limiter.stop());
    expect(String(await parked)).toMatch(/stopped/);
  });

  it('refuses impossible settings', () => {
    const base = { limit: 5, windowMs: W, marginMs: 0, reservedInteractive: 1, maxQueue: 10 };
    expect(() => createBottleneckLimiter({ ...base, limit: 0 })).toThrow(RangeError);
    expect(() => createBottleneckLimiter({ ...base, windowMs: 0 })).toThrow(RangeError);
    expect(() => createBottleneckLimiter({ ...base, jobExpirationMs: W })).toThrow(RangeError);
  });
});
