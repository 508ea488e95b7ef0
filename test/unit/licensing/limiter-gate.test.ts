/** The 429 gate (limiter-gate.ts) over the real backoff policy, on a fake clock. */
import { describe, expect, it } from 'vitest';
import { createBackoffPolicy } from '../../../src/kernel/licensing/limiter/limiter-backoff.js';
import { createPauseGate } from '../../../src/kernel/licensing/limiter/limiter-gate.js';
import type { Priority } from '../../../src/kernel/licensing/limiter.js';
import { createFakeClock } from '../../support/limiter-fake-clock.js';

interface Job {
  seq: number;
  priority: Priority;
  label: string;
}

function setUp() {
  const clock = createFakeClock();
  const backoff = createBackoffPolicy({ windowMs: 60_000, now: clock.now, random: () => 0 });
  const resubmitted: string[] = [];
  const gate = createPauseGate<Job>({ backoff, clock, resubmit: (job) => resubmitted.push(job.label) });
  let seq = 0;
  const job = (label: string, priority: Priority = 'interactive'): Job => ({ seq: seq++, priority, label });
  const rateLimited = () => backoff.onRateLimited({ sentAt: clock.now(), ownSendsInWindow: 1, limit: 25 });
  return { clock, backoff, gate, resubmitted, job, rateLimited };
}

describe('the 429 gate', () => {
  it('open: every job goes', () => {
    const { gate, job } = setUp();
    expect(gate.admits(job('a'))).toBe(true);
    expect(gate.admits(job('b'))).toBe(true);
    expect(gate.pauseLeftMs()).toBe(0);
  });

  it('paused: jobs are parked and submitted again when the pause ends on the clock, people first', () => {
    const { clock, gate, job, resubmitted, rateLimited } = setUp();
    expect(rateLimited().pauseMs).toBe(3_000);
    for (const j of [job('bulk1', 'background'), job('person1'), job('bulk2', 'background'), job('person2')]) {
      expect(gate.admits(j)).toBe(false);
      gate.park(j);
    }
    expect(gate.pauseLeftMs()).toBe(3_000);
    clock.advance(2_999);
    expect(resubmitted).toEqual([]);
    clock.advance(1);
    expect(resubmitted).toEqual(['person1', 'person2', 'bulk1', 'bulk2']);
    expect(gate.parkedCount()).toBe(0);
  });

  it('probing: exactly one job goes; its answer lets the parked ones try again', () => {
    const { clock, gate, job, resubmitted, rateLimited, backoff } = setUp();
    rateLimited();
    clock.advance(3_000);
    const probe = job('probe');
    const other = job('other');
    expect(gate.admits(probe)).toBe(true);
    expect(gate.isProbe(probe)).toBe(true);
    expect(gate.admits(other)).toBe(false);
    gate.park(other);
    // The probe came back without a 429: the episode is over.
    expect(backoff.onSuccess(clock.now())).toBe(true);
    gate.probeSettled(probe);
    expect(resubmitted).toEqual(['other']);
    expect(gate.admits(job('next'))).toBe(true);
  });

  it('a probe that draws a 429 too: the parked jobs wait for the longer pause (rearm)', () => {
    const { clock, gate, job, resubmitted, rateLimited } = setUp();
    rateLimited();
    clock.advance(3_000);
    const probe = job('probe');
    expect(gate.admits(probe)).toBe(true);
    const other = job('other');
    gate.admits(other);
    gate.park(other);
    // Second 429 in a row: the pause doubles (no jitter here).
    expect(rateLimited().pauseMs).toBe(6_000);
    gate.rearm();
    gate.probeSettled(probe);
    expect(resubmitted).toEqual([]);
    clock.advance(6_000);
    expect(resubmitted).toEqual(['other']);
  });

  it('close hands back the parked jobs and leaves no timer behind; retain drops the failed ones', () => {
    const { clock, gate, job, rateLimited } = setUp();
    rateLimited();
    const [a, b] = [job('a'), job('b')];
    gate.park(a);
    gate.park(b);
    gate.retain((j) => j !== a);
    expect(gate.parkedCount()).toBe(1);
    expect(gate.close().map((j) => j.label)).toEqual(['b']);
    expect(clock.pending()).toBe(0);
  });
});
