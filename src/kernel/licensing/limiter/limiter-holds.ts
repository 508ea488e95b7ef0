/**
 * Held slots and requests in flight (docs/rate-limiting.md, "Held slots" and "The parts"): a slot
 * stays taken for a window plus the margin after its answer, on an injected clock, and stop() can cut
 * every hold short at once. Also counts the requests whose fn is running, so stop() can wait for them.
 */
import type { Clock, ClockTimer } from './limiter-clock.js';

export interface Holds {
  /** Resolves after `ms` on the clock, or at once when the holds are cut (or were already). */
  hold(ms: number): Promise<void>;
  /** Slots taken now: a request in flight or holding after its answer. */
  held(): number;
  /** Ms until each holding slot (after its answer) is free again, soonest first: for wait estimates. */
  freeInMs(): number[];
  /** Marks a slot taken until the returned release is called (once). */
  take(): () => void;
  /** Runs fn as a request in flight. */
  inFlight<T>(fn: () => Promise<T>): Promise<T>;
  /** Resolves once no fn is running. */
  whenNoneInFlight(): Promise<void>;
  /** From now on a new hold ends at once (the limiter is stopping); the running ones go on. */
  endNewHolds(): void;
  /** Ends every hold now, and every later one at once. */
  cut(): void;
}

export function createHolds(clock: Clock): Holds {
  let held = 0;
  let running = 0;
  let endNew = false;
  const timers = new Map<ClockTimer, () => void>();
  /** When each running hold ends, on the clock. */
  const ends = new Map<ClockTimer, number>();
  const idleWaiters: (() => void)[] = [];

  return {
    hold(ms) {
      return new Promise<void>((resolve) => {
        if (endNew) return resolve();
        const timer = clock.setTimer(() => {
          timers.delete(timer);
          ends.delete(timer);
          resolve();
        }, ms);
        timers.set(timer, resolve);
        ends.set(timer, clock.now() + ms);
      });
    },
    held: () => held,
    freeInMs() {
      const at = clock.now();
      return [...ends.values()].map((end) => Math.max(0, end - at)).sort((a, b) => a - b);
    },
    take() {
      held++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held--;
      };
    },
    async inFlight(fn) {
      running++;
      try {
        return await fn();
      } finally {
        running--;
        if (running === 0) for (const wake of idleWaiters.splice(0)) wake();
      }
    },
    whenNoneInFlight() {
      if (running === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    endNewHolds() {
      endNew = true;
    },
    cut() {
      endNew = true;
      for (const [timer, resolve] of timers) {
        timer.cancel();
        resolve();
      }
      timers.clear();
      ends.clear();
    },
  };
}
