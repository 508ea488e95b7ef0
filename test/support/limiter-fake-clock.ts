/**
 * A fake clock for the limiter's parts (src/kernel/licensing/limiter/limiter-clock.ts): time moves only when a test
 * says so, and timers fire in order of their due time, each at that time. Plus `drive`, which runs a
 * composed limiter on it: wait until bottleneck has nothing left to move (on real turns of the event
 * loop), then jump to the next timer, until the awaited promise settles.
 */
import type { Clock, ClockTimer } from '../../src/kernel/licensing/limiter/limiter-clock.js';

export interface FakeClock extends Clock {
  /** Sleeps `ms` on this clock. */
  sleep(ms: number): Promise<void>;
  /** Moves time forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void;
  /** Moves time to the next timer and fires every timer due then; false when none is set. */
  advanceToNext(): boolean;
  /** Timers set and not fired or cancelled. */
  pending(): number;
  /** When the next timer is due; undefined when none is set. */
  nextAt(): number | undefined;
}

export function createFakeClock(start = 1_000_000): FakeClock {
  let now = start;
  let order = 0;
  const timers = new Set<{ at: number; order: number; fn: () => void }>();
  const next = () => {
    let first: { at: number; order: number; fn: () => void } | undefined;
    for (const t of timers)
      if (first === undefined || t.at < first.at || (t.at === first.at && t.order < first.order)) first = t;
    return first;
  };
  const fireUntil = (target: number) => {
    for (let t = next(); t !== undefined && t.at <= target; t = next()) {
      timers.delete(t);
      now = Math.max(now, t.at);
      t.fn();
    }
    now = Math.max(now, target);
  };
  const clock: FakeClock = {
    now: () => now,
    setTimer(fn, ms): ClockTimer {
      const timer = { at: now + Math.max(0, ms), order: order++, fn };
      timers.add(timer);
      return { cancel: () => timers.delete(timer) };
    },
    sleep: (ms) => new Promise<void>((resolve) => clock.setTimer(resolve, ms)),
    advance: (ms) => fireUntil(now + ms),
    advanceToNext() {
      const t = next();
      if (t === undefined) return false;
      fireUntil(t.at);
      return true;
    },
    pending: () => timers.size,
    nextAt: () => next()?.at,
  };
  return clock;
}

/** One real turn of the event loop: promise callbacks and bottleneck's setImmediate yields run. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Waits, on real turns of the event loop, until `settling()` has been false twice in a row. bottleneck
 * starts a registered job on a real setTimeout(0), so now and then a turn also waits for a timer.
 */
export async function settle(limiter: { settling(): boolean }): Promise<void> {
  let quiet = 0;
  for (let i = 0; quiet < 2; i++) {
    if (i > 20_000) throw new Error('the limiter kept moving jobs: it never settled');
    await (i % 8 === 7 ? new Promise<void>((resolve) => setTimeout(resolve, 0)) : turn());
    quiet = limiter.settling() ? 0 : quiet + 1;
  }
}

/** Runs the limiter on the fake clock until `until` settles; fails when nothing is left to wait for. */
export async function drive<T>(clock: FakeClock, limiter: { settling(): boolean }, until: Promise<T>): Promise<T> {
  let done = false;
  const watched = until.finally(() => {
    done = true;
  });
  watched.catch(() => undefined);
  for (;;) {
    await settle(limiter);
    if (done) return watched;
    if (!clock.advanceToNext()) {
      throw new Error('the limiter is stuck: the awaited work did not settle and no timer is left');
    }
  }
}

/** Lets `ms` pass on the fake clock one timer at a time, the limiter settling after each. */
export async function elapse(clock: FakeClock, limiter: { settling(): boolean }, ms: number): Promise<void> {
  const target = clock.now() + ms;
  await settle(limiter);
  for (let at = clock.nextAt(); at !== undefined && at <= target; at = clock.nextAt()) {
    clock.advanceToNext();
    await settle(limiter);
  }
  clock.advance(target - clock.now());
  await settle(limiter);
}
