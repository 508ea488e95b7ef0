/**
 * The daily progress pass (docs/progress.md): once a day, every active license's course progress is
 * read and recorded (services/progress-store.ts), so that License Desk can tell who has not started,
 * who has stalled and who finished.
 *
 * - **The cheapest walk.** The pages of GET /v1/students carry every student's courses with the
 *   license id, pool, progress, completion, start, end and whether the license is active: one request
 *   per page of students (100), about half a request per 100 licenses; plus the pools list (one
 *   request) for each pool's seats of the day. Reading pool by pool would cost a request per pool.
 * - **Memory stays flat.** Each page is recorded as it comes and dropped; nothing holds the account.
 * - **Background priority, a share of the budget.** Every read goes at background priority (the
 *   limiter keeps its reserved slots for people), and the pass spends at most
 *   floor(limit × PROGRESS_BUDGET_SHARE) requests in any rolling window (at least one): when the
 *   window's share is spent it waits, as the dashboard's counter does for HOME_BUDGET_SHARE.
 * - **One replica a day: the job lease.** Before it reads anything the pass takes the job lease
 *   `progress pass` (jobs/lease.ts, a row in the database): it gets it when nobody holds it or the
 *   holder's lease ran out, and renews it with every page. Another replica finds it held and does
 *   nothing; a replica that died lets its lease run out, and the next tick of another one resumes the
 *   pass from the document `progress:pass` in `state`, which keeps where it is.
 * - **Interrupted, it resumes.** The document keeps the pass's start and the next page. A stop or an
 *   error leaves every recorded page consistent (each page is one transaction) and the next run goes
 *   on from the page before the one it stopped at (a student moved across the cut is read again, not
 *   missed). Only a complete walk marks the licenses it did not see as no longer held (closeUnseen
 *   with the pass's start), and only a complete walk counts as the day's pass.
 */

import type { Records } from '../../kernel/db/open.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import type { Pool, Student } from '../../kernel/domain/types.js';
import { BadRequestError } from '../../kernel/licensing/errors.js';
import type { CallOptions, LicensingClient, Logger } from '../../kernel/licensing/types.js';
import { createDbLease } from '../../kernel/services/jobs/lease.js';
import { createJobRunner, type Job, type JobRunner } from '../../kernel/services/jobs/runner.js';
import { unscoped } from '../../kernel/services/request-scope.js';
import { stateDocument } from '../../kernel/services/state-records.js';
import { yieldToLoop } from '../../kernel/services/turns.js';
import { createProgressStore, type PoolSeats, type ProgressStore } from '../db/store.js';
import type { ProgressObservation } from '../domain/progress.js';

export const PROGRESS_PASS_KEY = 'progress:pass';
/** The job lease (jobs/lease.ts) of the replica running the pass. */
export const PROGRESS_PASS_LEASE = 'progress pass';
const BACKGROUND: CallOptions = { priority: 'background' };
/** The API's default page size, used when a larger one is refused (as the export does). */
const DEFAULT_PAGE_SIZE = 10;
/** A guard against a list that never ends. */
const MAX_PAGES = 100_000;
/**
 * Observations (or pools) written between two turns of the event loop. SQLite answers synchronously,
 * so a long run of queries never gives timers and requests a turn: a first sighting costs two
 * inserts, and 100 of them take some 30 ms of CPU.
 */
const CHUNK = 100;

/** What `state` `progress:pass` holds. */
export interface PassState {
  /** When the last complete pass started (ISO): the next is due a day later. */
  lastPassAt?: string;
  /** When it ended, and what it saw (for the log and App Home's "as of"). */
  lastDoneAt?: string;
  lastSeen?: number;
  /** A pass begun and not finished: where the next run goes on. */
  running?: RunningPass;
}

interface RunningPass {
  startedAt: string;
  nextPage: number;
  pageSize: number;
  requests: number;
  seen: number;
  added: number;
  changed: number;
}

export interface PassTotals {
  /** Licenses seen (observations recorded). */
  seen: number;
  /** Seen for the first time. */
  added: number;
  /** Progress or completion changed. */
  changed: number;
  /** Licenses no longer held (not seen by a complete walk). */
  closed: number;
  /** Licensing requests the pass made (pages and the pools list), resumed parts included. */
  requests: number;
  /** Pools whose seats were stored (changed since the last day stored). */
  pools: number;
  ms: number;
}

export type PassOutcome =
  | ({ kind: 'done'; startedAt: string; resumed: boolean } & PassTotals)
  | { kind: 'not-due'; lastPassAt: string }
  | { kind: 'held'; owner: string; leaseUntil: string }
  | { kind: 'stopped'; nextPage: number }
  | { kind: 'lost'; nextPage: number }
  | { kind: 'failed'; nextPage: number; error: string };

export interface ProgressPassOptions {
  licensing: LicensingClient;
  records: Records;
  logger: Logger;
  now: () => Date;
  /** The licensing budget: `limit` requests per `windowMs`. */
  rateLimit: { limit: number; windowMs: number };
  /** PROGRESS_BUDGET_SHARE. */
  share: number;
  /** How often a pass is due; default a day. */
  everyMs?: number;
  /** How long the lease lasts unless renewed (every page renews it); default 5 minutes. */
  leaseMs?: number;
  /** How often the job asks whether a pass is due (or a dead replica's pass is to be resumed); default 10 minutes. */
  tickMs?: number;
  /** How long after start() the first check runs (the start-up's own reads go first); default 15 s. */
  startDelayMs?: number;
  /** Waits `ms` unless the signal aborts first; default a timer (tests give a fake clock's). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** After each complete pass (the automatic return of completed seats hangs here). */
  afterPass?: (outcome: Extract<PassOutcome, { kind: 'done' }>) => Promise<void>;
  /** The store to record into; default one on `records`. */
  store?: ProgressStore;
  /** The runner it is a job of; default one of its own. */
  jobs?: JobRunner;
}

/** "Run the progress pass now": refused while a pass runs in this process, else started. */
export type PassRunNow = { kind: 'busy' } | { kind: 'started'; done: Promise<PassOutcome> };

export interface ProgressPass {
  /** Runs the pass now when it is due (`force`: even when not), unless another replica holds it. */
  run(opts?: { force?: boolean }): Promise<PassOutcome>;
  /**
   * An admin's "Run the progress pass now": a whole pass at once, due or not, within the same share of
   * the budget as the daily pass (the same allowance); 'busy' while a pass runs here (another replica's
   * running pass answers `held` when `done` settles).
   */
  runNow(): PassRunNow;
  /** The requests a pass may send per window (its share of the licensing budget) and the window. */
  pace(): { allowance: number; windowMs: number };
  /**
   * Whether the records are as fresh as the passes make them: a complete pass is recorded, none is
   * running here or left unfinished, and none is due. The weekly digest waits for it (docs/digest.md).
   */
  ready(): Promise<boolean>;
  /** What the records say of the passes. */
  state(): Promise<PassState>;
  /** The allowance: requests per window, and those spent in the current window. */
  budget(): { allowance: number; spent: number };
  /** Adds the job that checks soon whether a pass is due (`startDelayMs`), then every `tickMs`. */
  start(): void;
  /** Stops the timer and a running pass after its current page (it resumes next time). */
  stop(): Promise<void>;
}

function parseState(v: unknown): PassState | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as PassState) : undefined;
}

const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** A student's active licenses as the store takes them (one per license id). */
export function observationsOf(students: readonly Student[]): ProgressObservation[] {
  const out = new Map<string, ProgressObservation>();
  for (const s of students) {
    for (const c of s.courses) {
      if (!c.licenseActive) continue;
      out.set(c.licenseId, {
        licenseId: c.licenseId,
        poolId: c.poolId,
        courseId: c.id,
        studentId: s.id,
        studentEmail: s.email,
        studentName: s.name,
        progress: c.progress,
        completed: c.completed,
        start: c.start,
        end: c.end,
        active: true,
      });
    }
  }
  return [...out.values()];
}

function seatsOf(p: Pool): PoolSeats {
  const { id: poolId, licenses, transferable, end } = p;
  return { poolId, licenses, assigned: p.assignedLicenses, available: p.availableLicenses, transferable, end };
}

/** The pass's share of the licensing budget: at most `allowance` requests in any rolling window. */
function createPace(opts: ProgressPassOptions, sleep: NonNullable<ProgressPassOptions['sleep']>) {
  const allowance = Math.max(1, Math.floor(opts.rateLimit.limit * opts.share));
  const windowMs = opts.rateLimit.windowMs;
  const spentAt: number[] = [];
  const clock = () => opts.now().getTime();
  const spent = () => {
    const since = clock() - windowMs;
    while (spentAt.length > 0 && (spentAt[0] ?? 0) <= since) spentAt.shift();
    return spentAt.length;
  };
  return {
    allowance,
    windowMs,
    spent,
    /** Waits until the share allows one more request, then counts it; false when a stop came first. */
    async spendOne(signal: AbortSignal): Promise<boolean> {
      while (spent() >= allowance) {
        if (signal.aborted) return false;
        const oldest = spentAt[0] ?? clock();
        await sleep(Math.max(1, oldest + windowMs - clock() + 1), signal);
      }
      if (signal.aborted) return false;
      spentAt.push(clock());
      return true;
    },
  };
}

type Claim =
  | { kind: 'claimed'; pass: RunningPass; resumed: boolean }
  | Extract<PassOutcome, { kind: 'not-due' | 'held' }>;

/**
 * Where the pass stands, in the records: the job lease (jobs/lease.ts) says which replica runs it,
 * the `state` document where it is (its start and next page) and when the last complete one ran.
 */
function passRecords(opts: ProgressPassOptions, everyMs: number) {
  const doc = stateDocument<PassState>(opts.records, PROGRESS_PASS_KEY, {
    empty: () => ({}),
    parse: parseState,
    now: opts.now,
  });
  const lease = createDbLease(opts.records, { now: opts.now });
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const clock = () => opts.now().getTime();

  /** The lease taken, the pass to run: a begun one goes on where it stopped, else a new one when due. */
  async function claim(force: boolean): Promise<Claim> {
    if (!(await lease.take(PROGRESS_PASS_LEASE, leaseMs))) {
      const held = await lease.holder(PROGRESS_PASS_LEASE);
      return { kind: 'held', owner: held?.holder ?? '', leaseUntil: held?.until ?? '' };
    }
    const s = await doc.read();
    const t = clock();
    // A pass begun within the last period goes on where it stopped; an older one starts over.
    const resumable = s.running && t - Date.parse(s.running.startedAt) < everyMs ? s.running : undefined;
    const last = s.lastPassAt ? Date.parse(s.lastPassAt) : Number.NaN;
    if (!force && !resumable && !Number.isNaN(last) && t - last < everyMs) {
      await lease.release(PROGRESS_PASS_LEASE);
      return { kind: 'not-due', lastPassAt: s.lastPassAt ?? '' };
    }
    const pass: RunningPass = resumable
      ? { ...resumable, nextPage: Math.max(1, resumable.nextPage - 1) }
      : {
          startedAt: new Date(t).toISOString(),
          nextPage: 1,
          pageSize: opts.licensing.pageSize(),
          requests: 0,
          seen: 0,
          added: 0,
          changed: 0,
        };
    await doc.update((d) => {
      d.running = pass;
    });
    return { kind: 'claimed', pass, resumed: resumable !== undefined };
  }

  return {
    doc,
    claim,
    /** A complete pass is recorded, none is left unfinished, and none is due. */
    async fresh(): Promise<boolean> {
      const s = await doc.read();
      const last = s.lastPassAt ? Date.parse(s.lastPassAt) : Number.NaN;
      return !s.running && !Number.isNaN(last) && clock() - last < everyMs;
    },
    /** Saves where the pass is and renews the lease; false when another replica holds it now. */
    async checkpoint(pass: RunningPass): Promise<boolean> {
      if (!(await lease.renew(PROGRESS_PASS_LEASE, leaseMs))) return false;
      await doc.update((d) => {
        d.running = { ...pass };
      });
      return true;
    },
    /** Lets go of the lease, keeping the resume point (a stop, an error). */
    async release(pass: RunningPass): Promise<void> {
      await doc.update((d) => {
        d.running = { ...pass };
      });
      await lease.release(PROGRESS_PASS_LEASE);
    },
    async finish(pass: RunningPass): Promise<void> {
      await doc.update((d) => {
        delete d.running;
        d.lastPassAt = pass.startedAt;
        d.lastDoneAt = opts.now().toISOString();
        d.lastSeen = pass.seen;
      });
      await lease.release(PROGRESS_PASS_LEASE);
    },
  };
}

function logOutcome(logger: Logger, outcome: PassOutcome, pass: RunningPass): void {
  switch (outcome.kind) {
    case 'done':
      logger.info('progress pass done', {
        licenses: outcome.seen,
        added: outcome.added,
        changed: outcome.changed,
        noLongerHeld: outcome.closed,
        pools: outcome.pools,
        requests: outcome.requests,
        ms: outcome.ms,
        resumed: outcome.resumed,
      });
      break;
    case 'stopped':
      logger.info('progress pass stopped; it goes on from here at the next start', {
        nextPage: outcome.nextPage,
        requests: pass.requests,
      });
      break;
    case 'lost':
      logger.warn('progress pass: another replica took the pass over; this one stops', { nextPage: outcome.nextPage });
      break;
    case 'failed':
      logger.warn('progress pass failed; it goes on from here at the next try', {
        nextPage: outcome.nextPage,
        requests: pass.requests,
        error: outcome.error,
      });
      break;
  }
}

/** The pools' seats of the day: one request, before the students; how many pools' seats were stored. */
async function recordPools(opts: ProgressPassOptions, store: ProgressStore, pass: RunningPass): Promise<number> {
  let pools = 0;
  const poolList = await opts.licensing.pools.list(BACKGROUND);
  pass.requests += 1;
  const seats = poolList.map(seatsOf);
  for (let i = 0; i < seats.length; i += CHUNK) {
    pools += await store.recordPools(seats.slice(i, i + CHUNK), opts.now());
    await yieldToLoop();
  }
  return pools;
}

/** One page of students, read; undefined when a refused page size was lowered (read again). */
async function recordPage(opts: ProgressPassOptions, pass: RunningPass): Promise<Student[] | undefined> {
  let students: Student[];
  try {
    students = await opts.licensing.students.list({ page: pass.nextPage, pageSize: pass.pageSize }, BACKGROUND);
  } catch (error) {
    pass.requests += 1;
    if (pass.nextPage === 1 && error instanceof BadRequestError && pass.pageSize > DEFAULT_PAGE_SIZE) {
      pass.pageSize = DEFAULT_PAGE_SIZE;
      return undefined;
    }
    throw error;
  }
  pass.requests += 1;
  return students;
}

async function recordStudents(
  opts: ProgressPassOptions,
  store: ProgressStore,
  pass: RunningPass,
  students: Student[],
): Promise<void> {
  const seen = observationsOf(students);
  const at = opts.now();
  for (let i = 0; i < seen.length; i += CHUNK) {
    const outcome = await store.record(seen.slice(i, i + CHUNK), at);
    pass.seen += outcome.seen;
    pass.added += outcome.added;
    pass.changed += outcome.changed;
    await yieldToLoop();
  }
}

/** The work hung after a complete pass (the automatic return): a failure is logged, the pass stays done. */
async function afterPass(opts: ProgressPassOptions, outcome: Extract<PassOutcome, { kind: 'done' }>): Promise<void> {
  await opts.afterPass?.(outcome).catch((error: unknown) => {
    opts.logger.warn('progress pass: the work after the pass failed', { error: String(error) });
  });
}

export function createProgressPass(opts: ProgressPassOptions): ProgressPass {
  const { logger } = opts;
  const store = opts.store ?? createProgressStore(opts.records);
  const everyMs = opts.everyMs ?? DAY_MS;
  const pace = createPace(opts, opts.sleep ?? realSleep);
  const kept = passRecords(opts, everyMs);
  let stopping = new AbortController();
  let running: Promise<PassOutcome> | undefined;
  let job: Job | undefined;

  async function walk(pass: RunningPass, resumed: boolean): Promise<PassOutcome> {
    const started = performance.now();
    const stopped = async (): Promise<PassOutcome> => {
      await kept.release(pass);
      return { kind: 'stopped', nextPage: pass.nextPage };
    };
    if (!(await pace.spendOne(stopping.signal))) return stopped();
    const pools = await recordPools(opts, store, pass);
    let previousFirst: string | undefined;
    for (let n = 0; n < MAX_PAGES; n += 1) {
      if (stopping.signal.aborted || !(await pace.spendOne(stopping.signal))) return stopped();
      const students = await recordPage(opts, pass);
      if (!students) continue;
      // A server that ignores `page` sends the same page again: the walk is over.
      if (students.length > 0 && students[0]?.id === previousFirst) break;
      previousFirst = students[0]?.id;
      await recordStudents(opts, store, pass, students);
      const last = students.length < pass.pageSize;
      pass.nextPage += 1;
      if (!(await kept.checkpoint(pass))) return { kind: 'lost', nextPage: pass.nextPage };
      await yieldToLoop();
      if (last) break;
    }
    // Only a complete walk knows which licenses are no longer held.
    const closed = await store.closeUnseen(new Date(pass.startedAt));
    await kept.finish(pass);
    const { seen, added, changed, requests, startedAt } = pass;
    const ms = Math.round(performance.now() - started);
    return { kind: 'done', startedAt, resumed, seen, added, changed, closed, requests, pools, ms };
  }

  async function runOnce(force: boolean): Promise<PassOutcome> {
    const claimed = await kept.claim(force);
    if (claimed.kind !== 'claimed') return claimed;
    const { pass, resumed } = claimed;
    let outcome: PassOutcome;
    try {
      outcome = await walk(pass, resumed);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await kept.release(pass).catch(() => undefined);
      outcome = { kind: 'failed', nextPage: pass.nextPage, error: message };
    }
    logOutcome(logger, outcome, pass);
    if (outcome.kind === 'done') await afterPass(opts, outcome);
    return outcome;
  }

  function run({ force = false }: { force?: boolean } = {}): Promise<PassOutcome> {
    // The pass records every pool's holders, whoever asked for it (request-scope.ts).
    running ??= unscoped(() => runOnce(force)).finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    run,
    runNow() {
      if (running) return { kind: 'busy' };
      return { kind: 'started', done: run({ force: true }) };
    },
    pace: () => ({ allowance: pace.allowance, windowMs: pace.windowMs }),
    ready: async () => !running && (await kept.fresh()),
    state: () => kept.doc.read(),
    budget: () => ({ allowance: pace.allowance, spent: pace.spent() }),
    start() {
      if (job) return;
      stopping = new AbortController();
      // Soon after start (the start-up's own reads go first): a pass older than a day, or one left
      // unfinished, runs then; then every `tickMs` the job asks whether one is due.
      job = (opts.jobs ?? createJobRunner({ logger })).add({
        name: 'progress pass',
        everyMs: opts.tickMs ?? 10 * 60_000,
        firstAfterMs: opts.startDelayMs ?? 15_000,
        run: () =>
          run().catch((error: unknown) => {
            logger.warn('progress pass could not be started', { error: String(error) });
          }),
      });
    },
    async stop() {
      stopping.abort();
      await job?.stop(0);
      job = undefined;
      await running?.catch(() => undefined);
    },
  };
}
