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
 * - **One replica a day: a lease in `state`.** Before it reads anything the pass claims the document
 *   `progress:pass` in one locked read-modify-write (stateDocument.update): it takes it when nobody
 *   holds it or the holder's lease ran out, and renews the lease with every page. Another replica
 *   finds it held and does nothing; a replica that died lets its lease run out, and the next tick of
 *   another one resumes the pass.
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
import { stateDocument } from '../../kernel/services/state-records.js';
import { yieldToLoop } from '../../kernel/services/turns.js';
import type { ProgressObservation } from '../domain/progress.js';
import { createProgressStore, type PoolSeats, type ProgressStore } from './progress-store.js';

export const PROGRESS_PASS_KEY = 'progress:pass';
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
  /** The replica (records.instance) holding the lease, and until when. */
  owner?: string;
  leaseUntil?: string;
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
  /** How often the timer asks whether a pass is due (or a dead replica's pass is to be resumed); default 10 minutes. */
  tickMs?: number;
  /** How long after start() the first check runs (the start-up's own reads go first); default 15 s. */
  startDelayMs?: number;
  /** Waits `ms` unless the signal aborts first; default a timer (tests give a fake clock's). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** After each complete pass (the automatic return of completed seats hangs here). */
  afterPass?: (outcome: Extract<PassOutcome, { kind: 'done' }>) => Promise<void>;
  /** The store to record into; default one on `records`. */
  store?: ProgressStore;
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
  /** Checks soon whether a pass is due (`startDelayMs`), then every `tickMs`. */
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
  return {
    poolId: p.id,
    licenses: p.licenses,
    assigned: p.assignedLicenses,
    available: p.availableLicenses,
    transferable: p.transferable,
    end: p.end,
  };
}

export function createProgressPass(opts: ProgressPassOptions): ProgressPass {
  const { licensing, logger } = opts;
  const store = opts.store ?? createProgressStore(opts.records);
  const doc = stateDocument<PassState>(opts.records, PROGRESS_PASS_KEY, {
    empty: () => ({}),
    parse: parseState,
    now: opts.now,
  });
  const me = opts.records.instance;
  const everyMs = opts.everyMs ?? DAY_MS;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const tickMs = opts.tickMs ?? 10 * 60_000;
  const sleep = opts.sleep ?? realSleep;
  const allowance = Math.max(1, Math.floor(opts.rateLimit.limit * opts.share));
  const windowMs = opts.rateLimit.windowMs;
  const spentAt: number[] = [];
  const clock = () => opts.now().getTime();
  let stopping = new AbortController();
  let running: Promise<PassOutcome> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Timeout | undefined;

  const spent = () => {
    const since = clock() - windowMs;
    while (spentAt.length > 0 && (spentAt[0] ?? 0) <= since) spentAt.shift();
    return spentAt.length;
  };

  /** Waits until the share allows one more request, then counts it; false when a stop came first. */
  async function spendOne(): Promise<boolean> {
    while (spent() >= allowance) {
      if (stopping.signal.aborted) return false;
      const oldest = spentAt[0] ?? clock();
      await sleep(Math.max(1, oldest + windowMs - clock() + 1), stopping.signal);
    }
    if (stopping.signal.aborted) return false;
    spentAt.push(clock());
    return true;
  }

  type Claim =
    | { kind: 'claimed'; pass: RunningPass; resumed: boolean }
    | Extract<PassOutcome, { kind: 'not-due' | 'held' }>;

  async function claim(force: boolean): Promise<Claim> {
    let result: Claim | undefined;
    await doc.update((s) => {
      const t = clock();
      const leaseUntil = s.leaseUntil ? Date.parse(s.leaseUntil) : 0;
      if (s.owner && s.owner !== me && leaseUntil > t) {
        result = { kind: 'held', owner: s.owner, leaseUntil: s.leaseUntil ?? '' };
        return;
      }
      // A pass begun within the last period goes on where it stopped; an older one starts over.
      const resumable = s.running && t - Date.parse(s.running.startedAt) < everyMs ? s.running : undefined;
      const last = s.lastPassAt ? Date.parse(s.lastPassAt) : Number.NaN;
      if (!force && !resumable && !Number.isNaN(last) && t - last < everyMs) {
        result = { kind: 'not-due', lastPassAt: s.lastPassAt ?? '' };
        return;
      }
      const pass: RunningPass = resumable
        ? { ...resumable, nextPage: Math.max(1, resumable.nextPage - 1) }
        : {
            startedAt: new Date(t).toISOString(),
            nextPage: 1,
            pageSize: licensing.pageSize(),
            requests: 0,
            seen: 0,
            added: 0,
            changed: 0,
          };
      s.owner = me;
      s.leaseUntil = new Date(t + leaseMs).toISOString();
      s.running = pass;
      result = { kind: 'claimed', pass, resumed: resumable !== undefined };
    });
    if (!result) throw new Error('progress pass: the lease document was not read');
    return result;
  }

  /** Saves where the pass is and renews the lease; false when another replica holds it now. */
  async function checkpoint(pass: RunningPass): Promise<boolean> {
    let ours = false;
    await doc.update((s) => {
      if (s.owner !== me) return;
      ours = true;
      s.leaseUntil = new Date(clock() + leaseMs).toISOString();
      s.running = { ...pass };
    });
    return ours;
  }

  /** Lets go of the lease, keeping the resume point (a stop, an error). */
  async function release(pass: RunningPass): Promise<void> {
    await doc.update((s) => {
      if (s.owner !== me) return;
      delete s.owner;
      delete s.leaseUntil;
      s.running = { ...pass };
    });
  }

  async function finish(pass: RunningPass): Promise<void> {
    await doc.update((s) => {
      if (s.owner !== me) return;
      delete s.owner;
      delete s.leaseUntil;
      delete s.running;
      s.lastPassAt = pass.startedAt;
      s.lastDoneAt = opts.now().toISOString();
      s.lastSeen = pass.seen;
    });
  }

  async function walk(pass: RunningPass, resumed: boolean): Promise<PassOutcome> {
    const started = performance.now();
    let pools = 0;
    // The pools' seats of the day: one request, before the students.
    if (!(await spendOne())) {
      await release(pass);
      return { kind: 'stopped', nextPage: pass.nextPage };
    }
    const poolList = await licensing.pools.list(BACKGROUND);
    pass.requests += 1;
    const seats = poolList.map(seatsOf);
    for (let i = 0; i < seats.length; i += CHUNK) {
      pools += await store.recordPools(seats.slice(i, i + CHUNK), opts.now());
      await yieldToLoop();
    }
    let previousFirst: string | undefined;
    for (let n = 0; n < MAX_PAGES; n += 1) {
      if (stopping.signal.aborted || !(await spendOne())) {
        await release(pass);
        return { kind: 'stopped', nextPage: pass.nextPage };
      }
      let students: Student[];
      try {
        students = await licensing.students.list({ page: pass.nextPage, pageSize: pass.pageSize }, BACKGROUND);
      } catch (error) {
        pass.requests += 1;
        if (pass.nextPage === 1 && error instanceof BadRequestError && pass.pageSize > DEFAULT_PAGE_SIZE) {
          pass.pageSize = DEFAULT_PAGE_SIZE;
          continue;
        }
        throw error;
      }
      pass.requests += 1;
      // A server that ignores `page` sends the same page again: the walk is over.
      if (students.length > 0 && students[0]?.id === previousFirst) break;
      previousFirst = students[0]?.id;
      const seen = observationsOf(students);
      const at = opts.now();
      for (let i = 0; i < seen.length; i += CHUNK) {
        const outcome = await store.record(seen.slice(i, i + CHUNK), at);
        pass.seen += outcome.seen;
        pass.added += outcome.added;
        pass.changed += outcome.changed;
        await yieldToLoop();
      }
      const last = students.length < pass.pageSize;
      pass.nextPage += 1;
      if (!(await checkpoint(pass))) return { kind: 'lost', nextPage: pass.nextPage };
      await yieldToLoop();
      if (last) break;
    }
    // Only a complete walk knows which licenses are no longer held.
    const closed = await store.closeUnseen(new Date(pass.startedAt));
    await finish(pass);
    return {
      kind: 'done',
      startedAt: pass.startedAt,
      resumed,
      seen: pass.seen,
      added: pass.added,
      changed: pass.changed,
      closed,
      requests: pass.requests,
      pools,
      ms: Math.round(performance.now() - started),
    };
  }

  async function runOnce(force: boolean): Promise<PassOutcome> {
    const claimed = await claim(force);
    if (claimed.kind !== 'claimed') return claimed;
    const { pass, resumed } = claimed;
    let outcome: PassOutcome;
    try {
      outcome = await walk(pass, resumed);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await release(pass).catch(() => undefined);
      outcome = { kind: 'failed', nextPage: pass.nextPage, error: message };
    }
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
        if (opts.afterPass) {
          await opts.afterPass(outcome).catch((error: unknown) => {
            logger.warn('progress pass: the work after the pass failed', { error: String(error) });
          });
        }
        break;
      case 'stopped':
        logger.info('progress pass stopped; it goes on from here at the next start', {
          nextPage: outcome.nextPage,
          requests: pass.requests,
        });
        break;
      case 'lost':
        logger.warn('progress pass: another replica took the pass over; this one stops', {
          nextPage: outcome.nextPage,
        });
        break;
      case 'failed':
        logger.warn('progress pass failed; it goes on from here at the next try', {
          nextPage: outcome.nextPage,
          requests: pass.requests,
          error: outcome.error,
        });
        break;
    }
    return outcome;
  }

  function run({ force = false }: { force?: boolean } = {}): Promise<PassOutcome> {
    running ??= runOnce(force).finally(() => {
      running = undefined;
    });
    return running;
  }

  function tick(): void {
    if (stopping.signal.aborted) return;
    run().catch((error: unknown) => {
      logger.warn('progress pass could not be started', { error: String(error) });
    });
  }

  return {
    run,
    runNow() {
      if (running) return { kind: 'busy' };
      return { kind: 'started', done: run({ force: true }) };
    },
    pace: () => ({ allowance, windowMs }),
    async ready() {
      if (running) return false;
      const s = await doc.read();
      const last = s.lastPassAt ? Date.parse(s.lastPassAt) : Number.NaN;
      return !s.running && !Number.isNaN(last) && clock() - last < everyMs;
    },
    state: () => doc.read(),
    budget: () => ({ allowance, spent: spent() }),
    start() {
      if (timer) return;
      stopping = new AbortController();
      timer = setInterval(tick, tickMs);
      timer.unref();
      // Soon after start: a pass older than a day (or one left unfinished) runs then.
      first = setTimeout(tick, opts.startDelayMs ?? 15_000);
      first.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      timer = undefined;
      stopping.abort();
      await running?.catch(() => undefined);
    },
  };
}
