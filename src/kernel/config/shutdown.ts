/**
 * A clean stop on SIGTERM or SIGINT (docs/shutdown.md). In order:
 *
 * 1. Drain: the app takes no new work (each request is answered "License Desk is restarting; try
 *    again in a minute"), the alert check stops and a running bulk job stops after its current line,
 *    while the changes and reads in flight get up to `drainMs` to finish, tell the person and audit.
 * 2. Cut off what is left: the app's listener (HTTP server or socket) closes, the licensing client
 *    stops and ends the requests still in flight, so their flows finish at once: a read says License
 *    Desk is restarting, a change is audited and told as "outcome unknown". The Web API client keeps
 *    working for that, up to `tellMs`.
 * 3. Send the messages to people that the drained work queued (the outbox, bounded), post what the
 *    audit channel's queue still holds (bounded), close the stand-ins (sandbox, local Slack) and
 *    return; main.ts exits.
 *
 * Every part is closed by its name, in the order below, each close bounded so a stuck one cannot
 * keep the process from exiting.
 */
import type { Logger } from '../licensing/types.js';
import type { RunningWork, WorkTracker } from '../services/work-tracker.js';

/** The parts main.ts starts, in the order a stop closes them. */
export const STOP_ORDER = [
  'desk',
  'app',
  'licensing client',
  // The messages the drained work queued (an approval's DM, a settled write's): sent, then stopped.
  'outbox',
  'audit channel',
  // REDIS_URL: the desk's own Redis connections (shared state), once nothing writes there.
  'shared state',
  // REDIS_URL: whatever connection of the one Redis factory is still open (services/redis.ts).
  'redis',
  // The records (SQLite or PostgreSQL): last of what writes, once every flow has recorded its outcome.
  'records',
  'sandbox',
  'local Slack',
] as const;
export type Part = (typeof STOP_ORDER)[number];

/** Closes a part; `budgetMs` is how long it may take (the desk gives it to a bulk job's current line). */
export type Close = (budgetMs: number) => Promise<void>;

export interface StopOptions {
  logger: Logger;
  /** SHUTDOWN_DRAIN_SECONDS: how long the work in flight may take to finish. */
  drainMs: number;
  /** After the cut-off, how long the flows may take to tell and audit; default 5 s. */
  tellMs?: number;
  /** Longest wait for one part's close; default 5 s. */
  closeMs?: number;
}

export interface Stopper {
  /** Registers how to close `part` (as soon as it runs). */
  add(part: Part, close: Close): void;
  /** The app's work tracker, once the app exists. */
  watch(work: WorkTracker): void;
  /** Drains, cuts off and closes; resolves when everything is closed or given up on. Runs once. */
  stop(reason: string): Promise<void>;
  /** Closes every registered part at once, in order, without draining (start-up failed). */
  closeAll(): Promise<void>;
  /** The longest a stop() can take; main.ts exits with 1 if it ever takes longer. */
  readonly deadlineMs: number;
}

const listWork = (works: RunningWork[], now: number) =>
  works.map((w) => `${w.kind === 'write' ? 'change: ' : ''}${w.label} (${Math.round((now - w.startedAt) / 1000)} s)`);

export function createStopper(opts: StopOptions): Stopper {
  const { logger, drainMs } = opts;
  const tellMs = opts.tellMs ?? 5_000;
  const closeMs = opts.closeMs ?? 5_000;
  const parts = new Map<Part, Close>();
  let work: WorkTracker | undefined;
  let stopping: Promise<void> | undefined;

  async function close(part: Part, budgetMs = 0): Promise<void> {
    const fn = parts.get(part);
    if (!fn) return;
    parts.delete(part);
    let timer: NodeJS.Timeout | undefined;
    const limit = budgetMs + closeMs;
    const gaveUp = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limit);
    });
    try {
      const result = await Promise.race([fn(budgetMs).then(() => 'closed' as const), gaveUp]);
      if (result === 'late') logger.warn(`stopping: the ${part} did not close within ${limit} ms; going on`);
    } catch (error) {
      logger.warn(`could not close the ${part}`, { error });
    } finally {
      clearTimeout(timer);
    }
  }

  async function run(reason: string): Promise<void> {
    const started = Date.now();
    const inFlight = work?.running() ?? [];
    logger.info('stopping', {
      signal: reason,
      drainSeconds: drainMs / 1000,
      inFlight: listWork(inFlight, started),
    });
    work?.startDraining();
    // 1. Drain. The desk stops taking new lines and checks at once; its current line gets the bound too.
    const deskClosed = close('desk', drainMs);
    const drained = work ? await work.idle(drainMs) : true;
    await deskClosed;
    const left = work?.running() ?? [];
    if (!drained) {
      logger.warn('stopping: work still in flight after SHUTDOWN_DRAIN_SECONDS; cutting it off', {
        inFlight: listWork(left, Date.now()),
        changes: left.filter((w) => w.kind === 'write').length,
      });
    }
    // 2. Cut off. The listener first (nothing new arrives), then the licensing client, which ends what
    // is in flight; the flows then tell and audit through the Web API client, which stays usable.
    await close('app');
    const clientClosed = close('licensing client');
    if (work && !(await work.idle(tellMs))) {
      logger.error('stopping: some work could not finish telling its outcome', {
        inFlight: listWork(work.running(), Date.now()),
      });
    }
    await clientClosed;
    // 3. The audit queue, then the stand-ins last: the flows above may still have used them.
    for (const part of STOP_ORDER) await close(part);
    logger.info('stopped', { ms: Date.now() - started, drained });
  }

  return {
    add(part, fn) {
      parts.set(part, fn);
    },
    watch(tracker) {
      work = tracker;
    },
    stop(reason) {
      stopping ??= run(reason);
      return stopping;
    },
    async closeAll() {
      for (const part of STOP_ORDER) await close(part);
    },
    deadlineMs: drainMs + tellMs + STOP_ORDER.length * closeMs + 5_000,
  };
}
