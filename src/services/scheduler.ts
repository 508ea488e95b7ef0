/**
 * Runs a task once a day at a local time, e.g. the alert check at 09:00 Europe/Rome. A tick (every
 * minute by default) asks "is it past the time today, and has today's run not happened?", so a
 * process that was down at 09:00 runs the check when it comes back, a restart never runs it twice
 * (the day of the last run is persisted by the caller), and daylight-saving jumps need no special
 * case. The clock is injected and `tick()` / `runNow()` are public: tests never wait for 09:00 and
 * never fake global timers (which hang undici and bottleneck, design.md section 4).
 */
import type { Logger } from '../licensing/types.js';

export interface DayMemory {
  lastRunDay(): Promise<string | undefined>;
  setLastRunDay(day: string): Promise<void>;
}

export interface DailySchedulerOptions {
  /** HH:MM, 24-hour. */
  time: string;
  /** IANA zone of `time`. */
  timeZone: string;
  now: () => Date;
  memory: DayMemory;
  run: () => Promise<void>;
  logger: Logger;
  /** How often start() ticks; default 60_000. */
  tickMs?: number;
  /** After a failed run, wait this long before trying again the same day; default 15 minutes. */
  retryMs?: number;
}

export type TickResult = 'ran' | 'not-due' | 'already-ran' | 'busy' | 'failed' | 'stopped';

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
   * in progress (nothing new ran), 'stopped' after stop(); throws when the run fails.
   */
  runNow(): Promise<'ran' | 'busy' | 'stopped'>;
}

/** The calendar day (YYYY-MM-DD) and minutes since midnight of `at` in `timeZone`. */
export function localClock(at: Date, timeZone: string): { day: string; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return {
    day: `${get('year')}-${get('month')}-${get('day')}`,
    minutes: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

export function createDailyScheduler(opts: DailySchedulerOptions): DailyScheduler {
  const target = minutesOf(opts.time);
  const retryMs = opts.retryMs ?? 15 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let retryAt = 0;
  let stopped = false;

  async function execute(day: string): Promise<TickResult> {
    if (stopped) return 'stopped';
    if (running) return 'busy';
    const run = (async () => {
      await opts.run();
      await opts.memory.setLastRunDay(day);
    })();
    running = run;
    try {
      await run;
      retryAt = 0;
      return 'ran';
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

  // A timer tick has no caller to report to: a failure outside the run (e.g. reading the day memory)
  // is logged, never left as an unhandled rejection.
  const tickInBackground = () => {
    scheduler.tick().catch((error: unknown) => opts.logger.error('daily check tick failed', { error: String(error) }));
  };

  const scheduler: DailyScheduler = {
    start() {
      if (timer || stopped) return;
      timer = setInterval(tickInBackground, opts.tickMs ?? 60_000);
      timer.unref();
      tickInBackground();
    },
    async stop(timeoutMs = 2_000) {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      if (!running) return;
      let bound: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        bound = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = await Promise.race([
        running.then(
          () => 'done' as const,
          () => 'done' as const,
        ),
        timeout,
      ]);
      if (bound) clearTimeout(bound);
      if (outcome === 'timeout') {
        opts.logger.warn('stopping without waiting longer for the daily check in progress', { waitedMs: timeoutMs });
      }
    },
    async tick() {
      if (stopped) return 'stopped';
      const now = opts.now();
      const { day, minutes } = localClock(now, opts.timeZone);
      if (minutes < target || now.getTime() < retryAt) return 'not-due';
      if ((await opts.memory.lastRunDay()) === day) return 'already-ran';
      return execute(day);
    },
    async runNow() {
      const result = await execute(localClock(opts.now(), opts.timeZone).day);
      if (result === 'ran' || result === 'busy' || result === 'stopped') return result;
      throw new Error('the daily check failed; see the log');
    },
  };
  return scheduler;
}
