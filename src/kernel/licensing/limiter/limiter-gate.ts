/**
 * The 429 gate in front of the held slots (docs/rate-limiting.md, "429s"): limiter-backoff.ts decides
 * what a 429 costs; this part applies it to the jobs. While paused, a job that reaches its slot gives the
 * slot back unused and is parked; when the pause ends, the parked jobs are submitted again, a person
 * first. While probing, exactly one job goes through; its answer ends the episode or starts a new pause,
 * and then the rest are submitted again.
 */

import type { Priority } from '../limiter.js';
import type { BackoffPolicy } from './limiter-backoff.js';
import type { Clock, ClockTimer } from './limiter-clock.js';

export interface GateEntry {
  seq: number;
  priority: Priority;
}

export interface PauseGate<E extends GateEntry> {
  /** Whether this job may start now: the gate is open, or probing and this job is (now) the probe. */
  admits(entry: E): boolean;
  /** Keeps a job that was not admitted until the pause ends or the probe answers. */
  park(entry: E): void;
  isProbe(entry: E): boolean;
  /** The probe's answer was reported (or it failed before it was sent): submit the parked jobs again. */
  probeSettled(entry: E): void;
  /** A 429 moved the pause: wake the parked jobs when it ends. */
  rearm(): void;
  /** Submits the parked jobs again now (the episode ended), unless still paused. */
  resume(): void;
  /** ms until the pause ends; 0 when not paused. */
  pauseLeftMs(): number;
  /** Parked jobs for which keep() is false are dropped. */
  retain(keep: (entry: E) => boolean): void;
  parkedCount(): number;
  /** Cancels the timer and hands back every parked job. */
  close(): E[];
}

export function createPauseGate<E extends GateEntry>(opts: {
  backoff: BackoffPolicy;
  clock: Clock;
  /** Called with each parked job when it may try again. */
  resubmit: (entry: E) => void;
}): PauseGate<E> {
  const { backoff, clock, resubmit } = opts;
  let parked: E[] = [];
  let probe: E | undefined;
  let timer: ClockTimer | undefined;

  const cancel = () => {
    timer?.cancel();
    timer = undefined;
  };
  const wakeAt = (at: number) => {
    cancel();
    timer = clock.setTimer(resume, at - clock.now());
  };
  function resume(): void {
    cancel();
    const gate = backoff.gate();
    if (gate.state === 'paused') {
      wakeAt(gate.untilMs);
      return;
    }
    // A person waiting goes first, also as the probe.
    const rank = (e: E) => (e.priority === 'interactive' ? 0 : 1);
    const list = parked.sort((a, b) => rank(a) - rank(b) || a.seq - b.seq);
    parked = [];
    for (const entry of list) resubmit(entry);
  }

  return {
    admits(entry) {
      const gate = backoff.gate();
      if (gate.state === 'open') return true;
      if (gate.state === 'paused') {
        if (probe === entry) probe = undefined;
        return false;
      }
      probe ??= entry;
      return probe === entry;
    },
    park(entry) {
      parked.push(entry);
      // While probing, the probe's answer resumes the parked jobs (probeSettled).
      const gate = backoff.gate();
      if (gate.state === 'paused') wakeAt(gate.untilMs);
    },
    isProbe: (entry) => probe === entry,
    probeSettled(entry) {
      if (probe !== entry) return;
      probe = undefined;
      resume();
    },
    rearm() {
      const gate = backoff.gate();
      if (gate.state === 'paused' && parked.length > 0) wakeAt(gate.untilMs);
    },
    resume,
    pauseLeftMs() {
      const gate = backoff.gate();
      return gate.state === 'paused' ? Math.max(0, gate.untilMs - clock.now()) : 0;
    },
    retain(keep) {
      parked = parked.filter(keep);
    },
    parkedCount: () => parked.length,
    close() {
      cancel();
      return parked.splice(0);
    },
  };
}
