/**
 * The one job runner: everything License Desk does on a clock (the daily alert check, the weekly
 * digest, the progress pass, the outbox, settling writes in flight, the requests' reminders, the
 * waitlist's watch, reclaim rounds, audit retention, bulk jobs, the records' heartbeat) is a job
 * added here. No other module of src/ keeps a timer of its own for periodic work.
 *
 * A job has a name, a schedule (every `everyMs`; the daily ones tick every minute and decide in
 * daily.ts), optionally a lease so that exactly one replica runs it (lease.ts: a row in the
 * database, never Redis), and a function. The runner
 * - starts it (the first run after `firstAfterMs`, default one period),
 * - never runs two runs of one job at once in this process (a tick that finds it running is skipped;
 *   `run()` joins the run in progress),
 * - logs a failed run and goes on at the next tick,
 * - stops it: no new run, and the run in progress is waited for, at most a bound (docs/shutdown.md).
 *
 * The clock and timers are injected (test/support/manual-timers.ts): tests never wait for a period and
 * never fake global timers (which hang undici and bottleneck).
 */

import type { Logger } from '../../licensing/types.js';
import { type QueueTimers, realTimers } from '../audit-queue.js';
import { unscoped } from '../request-scope.js';
import type { JobLease } from './lease.js';

export type JobTimers = QueueTimers;
export { realTimers };

/** Exactly one replica runs it: the lease is taken before each run, renewed while it lasts, released after. */
export interface OneReplica {
  lease: JobLease;
  /** How long the lease lasts unless renewed (renewed every third of it while the run lasts); default 5 min. */
  leaseMs?: number;
}

export interface JobSpec<T = unknown> {
  /** Names the job in the log and its lease. */
  name: string;
  /** How often it runs. */
  everyMs: number;
  /** The first run after start (default `everyMs`; 0: at once). */
  firstAfterMs?: number;
  oneReplica?: OneReplica;
  run(): Promise<T>;
}

/** What one run came to: 'elsewhere' when another replica holds the job's lease (nothing ran here). */
export type RunResult<T> = { kind: 'ran'; value: T } | { kind: 'elsewhere' } | { kind: 'stopped' };

export interface Job<T = unknown> {
  readonly name: string;
  /** Runs now, or joins the run in progress; rejects when the run fails (a tick logs it instead). */
  run(): Promise<RunResult<T>>;
  /** Whether a run is in progress in this process. */
  readonly running: boolean;
  /** No new run; waits for the one in progress, at most `timeoutMs` (default: as long as it takes; 0: not at all). */
  stop(timeoutMs?: number): Promise<void>;
}

export interface JobRunner {
  /** The clock and timers the runner schedules with (what a job's own waits use too). */
  readonly timers: JobTimers;
  /** Adds a job and starts its schedule. */
  add<T>(spec: JobSpec<T>): Job<T>;
  /** The names of the jobs still scheduled. */
  names(): string[];
  /** Stops every job still scheduled, waiting for their runs (each at most `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

export interface JobRunnerOptions {
  logger: Logger;
  timers?: JobTimers;
}

export const DEFAULT_LEASE_MS = 5 * 60_000;

/** Waits for `work`, at most `timeoutMs`: 'late' when it had not settled by then. */
export async function within(timers: JobTimers, work: Promise<unknown>, timeoutMs: number): Promise<'done' | 'late'> {
  let bound: unknown;
  const late = new Promise<'late'>((resolve) => {
    bound = timers.setTimeout(() => resolve('late'), timeoutMs);
  });
  const done = work.then(
    () => 'done' as const,
    () => 'done' as const,
  );
  const outcome = await Promise.race([done, late]);
  timers.clearTimeout(bound);
  return outcome;
}

/**
 * Holds `name`'s lease while `work` runs: renews it every third of `leaseMs`, logs a renewal that
 * finds it lost. Returns the function that ends the renewals.
 */
export function keepLease(
  oneReplica: OneReplica,
  name: string,
  timers: JobTimers,
  logger: Logger,
): { end(): void; readonly lost: boolean } {
  const leaseMs = oneReplica.leaseMs ?? DEFAULT_LEASE_MS;
  let timer: unknown;
  let ended = false;
  let lost = false;
  const renew = () => {
    if (ended) return;
    oneReplica.lease.renew(name, leaseMs).then(
      (held) => {
        if (held || ended) return;
        lost = true;
        logger.warn(`${name}: the lease on the run was lost; another replica may run it too`);
      },
      (error: unknown) => logger.warn(`${name}: could not renew the lease`, { error: String(error) }),
    );
    if (!ended) timer = timers.setTimeout(renew, leaseMs / 3);
  };
  timer = timers.setTimeout(renew, leaseMs / 3);
  return {
    end() {
      ended = true;
      timers.clearTimeout(timer);
    },
    get lost() {
      return lost;
    },
  };
}

export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  const timers = opts.timers ?? realTimers;
  const logger = opts.logger;
  const jobs = new Map<string, Job>();

  function add<T>(spec: JobSpec<T>): Job<T> {
    if (jobs.has(spec.name)) throw new Error(`a job named ${spec.name} is already scheduled`);
    let timer: unknown;
    let running: Promise<RunResult<T>> | undefined;
    let stopped = false;

    // A run serves everyone: never narrowed to the scope of a person whose click started it.
    const once = (): Promise<RunResult<T>> => unscoped(runOnce);
    async function runOnce(): Promise<RunResult<T>> {
      const one = spec.oneReplica;
      if (!one) return { kind: 'ran', value: await spec.run() };
      if (!(await one.lease.take(spec.name, one.leaseMs ?? DEFAULT_LEASE_MS))) return { kind: 'elsewhere' };
      const held = keepLease(one, spec.name, timers, logger);
      try {
        return { kind: 'ran', value: await spec.run() };
      } finally {
        held.end();
        await one.lease.release(spec.name).catch((error: unknown) => {
          logger.warn(`${spec.name}: could not release the lease (it expires)`, { error: String(error) });
        });
      }
    }

    function run(): Promise<RunResult<T>> {
      if (stopped) return Promise.resolve({ kind: 'stopped' });
      running ??= once().finally(() => {
        running = undefined;
      });
      return running;
    }

    // A tick has nobody to report to: a failed run is logged, and the next tick runs again.
    function tick(): void {
      if (stopped) return;
      timer = timers.setTimeout(tick, spec.everyMs);
      if (running) return;
      run().catch((error: unknown) =>
        logger.warn(`${spec.name} failed; it runs again later`, { error: String(error) }),
      );
    }

    const job: Job<T> = {
      name: spec.name,
      run,
      get running() {
        return running !== undefined;
      },
      async stop(timeoutMs) {
        stopped = true;
        timers.clearTimeout(timer);
        if (jobs.get(spec.name) === job) jobs.delete(spec.name);
        if (!running || timeoutMs === 0) return;
        if (timeoutMs === undefined) {
          await running.catch(() => undefined);
        } else if ((await within(timers, running, timeoutMs)) === 'late') {
          logger.warn(`stopping without waiting longer for ${spec.name}`, { waitedMs: timeoutMs });
        }
      },
    };
    jobs.set(spec.name, job as Job);
    const first = spec.firstAfterMs ?? spec.everyMs;
    if (first <= 0) tick();
    else timer = timers.setTimeout(tick, first);
    return job;
  }

  return {
    timers,
    add,
    names: () => [...jobs.keys()],
    async stop(timeoutMs) {
      await Promise.all([...jobs.values()].map((job) => job.stop(timeoutMs)));
    },
  };
}

/** One job added at `start()` (at most once) and stopped at `stop()`: the face a feature's periodic work shows. */
export interface StartedJob {
  start(): void;
  /** Stops the job (see Job.stop) and forgets it, so that a later `start()` adds it again. */
  stop(timeoutMs?: number): Promise<void>;
}

/** `spec` as a job of `jobs` (a runner of its own on `logger` when none is given), added only at `start()`. */
export function startedJob<T>(jobs: JobRunner | undefined, logger: Logger, spec: JobSpec<T>): StartedJob {
  let job: Job<T> | undefined;
  return {
    start() {
      job ??= (jobs ?? createJobRunner({ logger })).add(spec);
    },
    async stop(timeoutMs) {
      await job?.stop(timeoutMs);
      job = undefined;
    },
  };
}
