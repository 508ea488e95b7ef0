/**
 * A job of the runner that runs once a day at a local time, e.g. the alert check at 09:00 Europe/Rome.
 * The runner ticks it (every minute by default) and the tick asks "is it past the time today, and has
 * today's run not happened?", so a process that was down at 09:00 runs the check when it comes back, a
 * restart never runs it twice (the day of the last run is persisted by the caller), and daylight-saving
 * jumps need no special case. The clock is injected and `tick()` / `runNow()` are public: tests never
 * wait for 09:00 and never fake global timers (which hang undici and bottleneck, design.md section 4).
 */
import { wallClock } from '../../domain/time.js';
import type { Logger } from '../../licensing/types.js';
import type { JobLease } from './lease.js';
import {
  createJobRunner,
  DEFAULT_LEASE_MS,
  type Job,
  type JobRunner,
  type JobTimers,
  keepLease,
  realTimers,
  within,
} from './runner.js';

export interface DayMemory {
  lastRunDay(): Promise<string | undefined>;
  setLastRunDay(day: string): Promise<void>;
}

export interface DailySchedulerOptions {
  /** Names the job (the runner's, the lease's). Default 'daily check'. */
  name?: string;
  /** HH:MM, 24-hour. */
  time: string;
  /** IANA zone of `time`. */
  timeZone: string;
  now: () => Date;
  memory: DayMemory;
  run: () => Promise<void>;
  logger: Logger;
  /** How often the runner ticks it; default 60_000. */
  tickMs?: number;
  /** After a failed run, wait this long before trying again the same day; default 15 minutes. */
  retryMs?: number;
  /** Several replicas: the day's run is leased to one of them (lease.ts, with a shared `memory`). */
  lease?: JobLease;
  /** How long a lease lasts without renewal (a replica that died holds the day this long); default 5 min. */
  leaseMs?: number;
  /** The runner that ticks it; default one of its own. */
  jobs?: JobRunner;
  timers?: JobTimers;
}

/** 'elsewhere': another replica holds today's run (the lease). */
export type TickResult = 'ran' | 'not-due' | 'already-ran' | 'busy' | 'elsewhere' | 'failed' | 'stopped';

export interface DailyScheduler {
  start(): void;
  /**
   * Stops ticking and waits for a run in progress, at most `timeoutMs` (default 2_000; with the bulk
   * runner's 5 s this stays under main.ts's 10 s exit deadline): the run may be queued behind background
   * work in the limiter, which only the licensing client's close() drains. A run left behind ends on its
   * own (logged, never an unhandled rejection) and is not counted as done.
   */
  stop(timeoutMs?: number): Promise<void>;
  tick(): Promise<TickResult>;
  /**
   * Runs now, whatever the time; counts as today's run when it succeeds. 'busy' when a run is already
   * in progress here or in another replica (nothing new ran), 'stopped' after stop(); throws when the
   * run fails.
   */
  runNow(): Promise<'ran' | 'busy' | 'stopped'>;
}

/** The calendar day (YYYY-MM-DD) and minutes since midnight of `at` in `timeZone`. */
export function localClock(at: Date, timeZone: string): { day: string; minutes: number } {
  const w = wallClock(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return { day: `${w.year}-${two(w.month)}-${two(w.day)}`, minutes: w.hour * 60 + w.minute };
}

export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/**
 * With a lease (several replicas, one database), the cases thought through:
 * - Two replicas tick at once: one takes the lease, the other gets 'elsewhere'. The winner reads the
 *   day memory again after taking it, so a replica that finished and released just before counts.
 * - The run succeeds: the day is recorded in the shared memory, then the lease is released; a
 *   replica dying between the two leaves a lease that expires, and the memory already says "ran".
 * - The run fails (licensing down, Slack refusing): the lease is held on for `retryMs`, so no replica
 *   tries again sooner; then the first one to tick retries. What was posted before the failure is in
 *   the shared alert memory, so a retry posts only the rest.
 * - The replica dies mid-run (SIGKILL, host lost): its lease is not renewed and expires within
 *   `leaseMs`; another replica's next tick runs the check. A group posted in the instant before
 *   the death and not yet remembered is posted a second time (at most one message).
 * - A stop (SIGTERM) mid-run releases the lease: another replica takes over at its next tick.
 * - A run longer than the lease: the lease is renewed every leaseMs / 3 while it runs; a renewal that
 *   finds it lost (an event-loop stall past the lease) is logged.
 * - The database unreachable: taking the lease throws, the tick fails (logged) and is tried at the
 *   next tick. Redis plays no part: Redis down stops no daily check.
 */
function leasedRun(
  opts: DailySchedulerOptions,
  name: string,
  timers: JobTimers,
  isStopped: () => boolean,
): (day: string, force: boolean) => Promise<'ran' | 'elsewhere' | 'already-ran'> {
  const retryMs = opts.retryMs ?? 15 * 60_000;
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  return async (day, force) => {
    const lease = opts.lease;
    if (!lease) {
      await opts.run();
      await opts.memory.setLastRunDay(day);
      return 'ran';
    }
    if (!(await lease.take(name, leaseMs))) return 'elsewhere';
    if (!force && (await opts.memory.lastRunDay()) === day) {
      await lease.release(name);
      return 'already-ran';
    }
    const held = keepLease({ lease, leaseMs }, name, timers, opts.logger);
    try {
      await opts.run();
      await opts.memory.setLastRunDay(day);
    } catch (error) {
      held.end();
      // Held on after a failure (no replica retries before retryMs); released at a stop.
      await (isStopped() ? lease.release(name) : lease.renew(name, retryMs)).catch(() => undefined);
      throw error;
    }
    held.end();
    await lease.release(name).catch((error: unknown) => {
      opts.logger.warn('daily check: could not release the lease (it expires)', { error: String(error) });
    });
    return 'ran';
  };
}

export function createDailyScheduler(opts: DailySchedulerOptions): DailyScheduler {
  const name = opts.name ?? 'daily check';
  const target = minutesOf(opts.time);
  const retryMs = opts.retryMs ?? 15 * 60_000;
  const timers = opts.timers ?? opts.jobs?.timers ?? realTimers;
  let job: Job | undefined;
  let running: Promise<unknown> | undefined;
  let retryAt = 0;
  let stopped = false;
  const attempt = leasedRun(opts, name, timers, () => stopped);
  // Skips told once per day and kind: a replica that is not running the check ticks every minute.
  const loggedSkip = new Set<string>();
  const tellSkip = (day: string, outcome: TickResult) => {
    if (!opts.lease || loggedSkip.has(`${day}:${outcome}`)) return;
    loggedSkip.add(`${day}:${outcome}`);
    opts.logger.info(
      outcome === 'elsewhere'
        ? "daily check: another replica is running today's check"
        : "daily check: today's check already ran",
      { day },
    );
  };

  async function execute(day: string, force: boolean): Promise<TickResult> {
    if (stopped) return 'stopped';
    if (running) return 'busy';
    const run = attempt(day, force);
    running = run;
    try {
      const outcome = await run;
      if (outcome === 'ran') retryAt = 0;
      else tellSkip(day, outcome);
      return outcome;
    } catch (error) {
      if (stopped) {
        opts.logger.info('daily check interrupted by shutdown; it runs again after the restart', {
          error: String(error),
        });
        return 'failed';
      }
      retryAt = opts.now().getTime() + retryMs;
      opts.logger.warn('daily check failed; will try again later today', { error: String(error), retryInMs: retryMs });
      return 'failed';
    } finally {
      running = undefined;
    }
  }

  const scheduler: DailyScheduler = {
    start() {
      if (job || stopped) return;
      const jobs = opts.jobs ?? createJobRunner({ logger: opts.logger, timers });
      // A tick has no caller to report to: a failure outside the run (e.g. reading the day memory) is
      // logged here, never left as an unhandled rejection.
      job = jobs.add({
        name,
        everyMs: opts.tickMs ?? 60_000,
        firstAfterMs: 0,
        run: () =>
          scheduler.tick().catch((error: unknown) => {
            opts.logger.error('daily check tick failed', { error: String(error) });
          }),
      });
    },
    async stop(timeoutMs = 2_000) {
      stopped = true;
      await job?.stop(0);
      job = undefined;
      if (!running) return;
      if ((await within(timers, running, timeoutMs)) === 'late') {
        opts.logger.warn('stopping without waiting longer for the daily check in progress', { waitedMs: timeoutMs });
      }
    },
    async tick() {
      if (stopped) return 'stopped';
      const now = opts.now();
      const { day, minutes } = localClock(now, opts.timeZone);
      if (minutes < target || now.getTime() < retryAt) return 'not-due';
      if ((await opts.memory.lastRunDay()) === day) {
        tellSkip(day, 'already-ran');
        return 'already-ran';
      }
      return execute(day, false);
    },
    async runNow() {
      const result = await execute(localClock(opts.now(), opts.timeZone).day, true);
      if (result === 'elsewhere') return 'busy';
      if (result === 'ran' || result === 'busy' || result === 'stopped') return result;
      throw new Error('the daily check failed; see the log');
    },
  };
  return scheduler;
}
