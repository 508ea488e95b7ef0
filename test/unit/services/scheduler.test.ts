import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createDailyScheduler, localClock } from '../../../src/kernel/services/jobs/daily.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function setup(
  time: string,
  timeZone: string,
  start: string,
  run: () => Promise<void> = async () => {},
  log: Logger = logger,
) {
  let now = new Date(start);
  let lastDay: string | undefined;
  let runs = 0;
  const scheduler = createDailyScheduler({
    time,
    timeZone,
    now: () => now,
    memory: {
      lastRunDay: async () => lastDay,
      setLastRunDay: async (d) => {
        lastDay = d;
      },
    },
    run: async () => {
      runs++;
      await run();
    },
    logger: log,
    retryMs: 15 * 60_000,
  });
  return {
    scheduler,
    at: (iso: string) => {
      now = new Date(iso);
    },
    runs: () => runs,
    lastDay: () => lastDay,
  };
}

describe('daily scheduler (injected clock, no timers)', () => {
  it('runs once a day, at or after the time, in the configured zone', async () => {
    const s = setup('09:00', 'Europe/Rome', '2026-11-21T07:59:00Z'); // 08:59 in Rome
    expect(await s.scheduler.tick()).toBe('not-due');
    s.at('2026-11-21T08:00:00Z'); // 09:00 in Rome
    expect(await s.scheduler.tick()).toBe('ran');
    expect(s.lastDay()).toBe('2026-11-21');
    s.at('2026-11-21T15:00:00Z');
    expect(await s.scheduler.tick()).toBe('already-ran');
    s.at('2026-11-22T08:30:00Z');
    expect(await s.scheduler.tick()).toBe('ran');
    expect(s.runs()).toBe(2);
  });

  it('a process that was down at the time runs the check when it comes back the same day', async () => {
    const s = setup('09:00', 'UTC', '2026-11-21T16:00:00Z');
    expect(await s.scheduler.tick()).toBe('ran');
  });

  it('after a failure, waits the retry delay, then tries again the same day', async () => {
    let fail = true;
    const s = setup('09:00', 'UTC', '2026-11-21T09:00:00Z', async () => {
      if (fail) throw new Error('licensing down');
    });
    expect(await s.scheduler.tick()).toBe('failed');
    s.at('2026-11-21T09:10:00Z');
    expect(await s.scheduler.tick()).toBe('not-due');
    fail = false;
    s.at('2026-11-21T09:16:00Z');
    expect(await s.scheduler.tick()).toBe('ran');
  });

  it('runNow runs whatever the time and counts as the day run', async () => {
    const s = setup('09:00', 'UTC', '2026-11-21T03:00:00Z');
    await s.scheduler.runNow();
    s.at('2026-11-21T10:00:00Z');
    expect(await s.scheduler.tick()).toBe('already-ran');
  });

  it('runNow says busy while a run is in progress instead of claiming it ran', async () => {
    let release = () => {};
    const s = setup('09:00', 'UTC', '2026-11-21T03:00:00Z', () => new Promise<void>((r) => (release = r)));
    const first = s.scheduler.runNow();
    await Promise.resolve();
    expect(await s.scheduler.runNow()).toBe('busy');
    expect(s.runs()).toBe(1);
    release();
    expect(await first).toBe('ran');
  });

  it('stop() gives up waiting after its bound; the run left behind fails quietly and is not counted', async () => {
    let fail = (_: Error) => {};
    const warnings: string[] = [];
    const infos: string[] = [];
    const s = setup('09:00', 'UTC', '2026-11-21T10:00:00Z', () => new Promise<void>((_, reject) => (fail = reject)), {
      ...logger,
      warn: (m: string) => warnings.push(m),
      info: (m: string) => infos.push(m),
    });
    const tick = s.scheduler.tick();
    await Promise.resolve();
    const started = performance.now();
    await s.scheduler.stop(50);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(warnings.some((w) => w.includes('without waiting longer'))).toBe(true);
    // The licensing client closes after stop() and the queued check is rejected.
    fail(new Error('limiter stopped'));
    expect(await tick).toBe('failed');
    expect(infos.some((m) => m.includes('interrupted by shutdown'))).toBe(true);
    expect(s.lastDay()).toBeUndefined();
    expect(await s.scheduler.tick()).toBe('stopped');
    expect(await s.scheduler.runNow()).toBe('stopped');
    expect(s.runs()).toBe(1);
  });

  it('a timer tick that throws outside the run is logged, not left unhandled', async () => {
    const errors: string[] = [];
    let logged!: () => void;
    const errorLogged = new Promise<void>((resolve) => {
      logged = resolve;
    });
    const scheduler = createDailyScheduler({
      time: '00:00',
      timeZone: 'UTC',
      now: () => new Date('2026-11-21T10:00:00Z'),
      memory: {
        lastRunDay: () => Promise.reject(new Error('disk gone')),
        setLastRunDay: async () => {},
      },
      run: async () => {},
      logger: {
        ...logger,
        error: (m: string) => {
          errors.push(m);
          logged();
        },
      },
      tickMs: 60_000,
    });
    scheduler.start();
    await errorLogged;
    await scheduler.stop();
    expect(errors).toEqual(['daily check tick failed']);
  });

  it('localClock reads the wall clock of a zone, across the date line', () => {
    expect(localClock(new Date('2026-11-21T23:30:00Z'), 'Asia/Tokyo')).toEqual({
      day: '2026-11-22',
      minutes: 8 * 60 + 30,
    });
    expect(localClock(new Date('2026-11-21T00:15:00Z'), 'UTC')).toEqual({ day: '2026-11-21', minutes: 15 });
  });
});
