/**
 * The one job runner on a manual clock (test/support/manual-timers.ts): jobs run on their schedule,
 * never two runs of one job at once, a failed run is logged and the next one happens, and a stop
 * waits for the run in progress (at most its bound).
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createJobRunner } from '../../../src/kernel/services/jobs/runner.js';
import { manualTimers } from '../../support/manual-timers.js';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
}

/** Lets the promises of a run settle (the runner's own steps are promise turns, no timers). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('the job runner', () => {
  it('runs each job on its own schedule, the first at its first delay (0: at once)', async () => {
    const clock = manualTimers();
    const jobs = createJobRunner({ logger: recordingLogger(), timers: clock.timers });
    const runs: string[] = [];
    jobs.add({ name: 'outbox', everyMs: 10_000, firstAfterMs: 0, run: async () => void runs.push('outbox') });
    jobs.add({ name: 'retention', everyMs: 60_000, run: async () => void runs.push('retention') });
    expect(runs).toEqual(['outbox']);
    expect(jobs.names()).toEqual(['outbox', 'retention']);
    await settle();
    for (let i = 0; i < 3; i += 1) {
      clock.advance(10_000);
      await settle();
    }
    expect(runs.filter((r) => r === 'outbox')).toHaveLength(4);
    expect(runs).not.toContain('retention');
    for (let i = 0; i < 3; i += 1) {
      clock.advance(10_000);
      await settle();
    }
    expect(runs.filter((r) => r === 'retention')).toHaveLength(1);
    await jobs.stop();
    expect(jobs.names()).toEqual([]);
    clock.advance(600_000);
    await settle();
    expect(runs.filter((r) => r === 'outbox')).toHaveLength(7);
    expect(clock.pending).toBe(0);
  });

  it('never runs two runs of one job at once: a tick during a run is skipped, run() joins it', async () => {
    const clock = manualTimers();
    const jobs = createJobRunner({ logger: recordingLogger(), timers: clock.timers });
    let started = 0;
    let inFlight = 0;
    let most = 0;
    const slow = gate();
    const job = jobs.add({
      name: 'progress pass',
      everyMs: 1_000,
      run: async () => {
        started += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await slow.opened;
        inFlight -= 1;
        return started;
      },
    });
    clock.advance(1_000);
    expect(job.running).toBe(true);
    clock.advance(5_000);
    const joined = job.run();
    expect(started).toBe(1);
    slow.open();
    expect(await joined).toEqual({ kind: 'ran', value: 1 });
    expect(most).toBe(1);
    expect(job.running).toBe(false);
    clock.advance(1_000);
    await settle();
    expect(started).toBe(2);
    await jobs.stop();
  });

  it('logs a failed run and runs again at the next tick', async () => {
    const clock = manualTimers();
    const logger = recordingLogger();
    const jobs = createJobRunner({ logger, timers: clock.timers });
    let calls = 0;
    jobs.add({
      name: 'digest',
      everyMs: 60_000,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('licensing down');
      },
    });
    clock.advance(60_000);
    await settle();
    expect(logger.warnings).toEqual(['digest failed; it runs again later']);
    clock.advance(60_000);
    await settle();
    expect(calls).toBe(2);
    expect(logger.warnings).toHaveLength(1);
    await jobs.stop();
  });

  it('a stop waits for the run in progress, and starts no other', async () => {
    const clock = manualTimers();
    const jobs = createJobRunner({ logger: recordingLogger(), timers: clock.timers });
    const slow = gate();
    let done = false;
    let runs = 0;
    jobs.add({
      name: 'settle writes',
      everyMs: 1_000,
      firstAfterMs: 0,
      run: async () => {
        runs += 1;
        await slow.opened;
        done = true;
      },
    });
    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    slow.open();
    await stopping;
    expect(done).toBe(true);
    clock.advance(10_000);
    expect(runs).toBe(1);
  });

  it('a stop with a bound gives up waiting for a run that hangs, and says so', async () => {
    const clock = manualTimers();
    const logger = recordingLogger();
    const jobs = createJobRunner({ logger, timers: clock.timers });
    const job = jobs.add({
      name: 'bulk jobs',
      everyMs: 1_000,
      firstAfterMs: 0,
      run: () => new Promise(() => undefined),
    });
    const stopping = job.stop(2_000);
    await settle();
    clock.advance(2_000);
    await stopping;
    expect(logger.warnings).toEqual(['stopping without waiting longer for bulk jobs']);
    expect(await job.run()).toEqual({ kind: 'stopped' });
  });

  it('refuses a second job of the same name', () => {
    const jobs = createJobRunner({ logger: recordingLogger(), timers: manualTimers().timers });
    jobs.add({ name: 'outbox', everyMs: 1_000, run: async () => undefined });
    expect(() => jobs.add({ name: 'outbox', everyMs: 1_000, run: async () => undefined })).toThrow(/already scheduled/);
  });
});
