/**
 * A clock and timers that move only when a test says so, for code that takes injected timers (the
 * audit post queue). `advance(ms)` runs every timer that falls due, in order, with the clock at its time.
 */
import type { QueueTimers } from '../../src/kernel/services/audit-queue.js';

export interface ManualTimers {
  timers: QueueTimers;
  advance(ms: number): void;
  /** Timers set and not yet run or cleared. */
  readonly pending: number;
  now(): number;
}

export function manualTimers(start = Date.parse('2026-11-21T10:00:00Z')): ManualTimers {
  let now = start;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    timers: {
      now: () => now,
      setTimeout(fn, ms) {
        seq += 1;
        due.set(seq, { at: now + Math.max(0, ms), fn });
        return seq;
      },
      clearTimeout(handle) {
        due.delete(handle as number);
      },
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = [...due].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!next) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = until;
    },
    get pending() {
      return due.size;
    },
    now: () => now,
  };
}
