/**
 * The waitlist of approved requests for full pools (docs/waitlist.md): first in, first out per pool.
 * The lines are not a list of their own: they are the waitlisted requests in the database, ordered
 * by their rank (services/requests/db-store.ts). When a seat may have freed up, `seatFreed(poolId)`
 * reads the pool fresh and gives each free seat to the first request in line through the injected
 * `assignWaitlisted` (the assign use case: every rule is checked again, and the request moves to
 * 'assigning' by a conditional update, so a seat goes to one request even across replicas); a
 * request that can never take the seat leaves the line with its reason and the seat goes to the next.
 * What people are told is queued by the request service with each change (the outbox).
 *
 * One seatFreed per pool at a time in this process (the `lock`), and the pool is read inside it.
 */

import { withinScope } from '../../kernel/domain/scope.js';
import type { Priority } from '../../kernel/licensing/limiter.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditEntry } from '../../kernel/services/audit.js';
import type { NoticeSteps } from '../../kernel/services/outbox.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import type { WaitlistStore } from '../db/request-store.js';
import type { Offers } from '../domain/offers.js';
import {
  entriesOf,
  poolOf,
  type SeatHandOn,
  type WaitlistAssignOutcome,
  type WaitlistEntry,
  type WaitlistedRequest,
} from '../domain/waitlist.js';
import { firstIn, giveSeats, type RoundContext, type SeatFreedResult, whose } from './waitlist-round.js';

export type { SeatFreedResult } from './waitlist-round.js';
export type { SeatHandOn, WaitlistAssignOutcome, WaitlistEntry, WaitlistedRequest };

/** Runs `fn` while no other seatFreed of the same pool runs (in this process, or across replicas). */
export interface PoolLock {
  run<T>(poolId: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * What the people concerned are told; the Slack layer implements it (DMs), called by the outbox's
 * delivery. Throws when a DM failed, after trying every one (the outbox tries again; `steps` skips
 * the DMs sent).
 */
export interface WaitlistNotices {
  /** The request got a seat; `passedOver` are the requests ahead of it that could not take it. */
  assigned(
    entry: WaitlistEntry,
    outcome: Extract<WaitlistAssignOutcome, { kind: 'assigned' }>,
    steps?: NoticeSteps,
  ): Promise<void>;
  /**
   * The request left the line without a seat (its assign failed for good). `poolEnded`: no seat was
   * freed at all, the pool has ended, and the whole line leaves with it (nothing goes to the next).
   */
  skipped(
    entry: WaitlistEntry,
    reason: string,
    nextInLine: WaitlistEntry | undefined,
    poolEnded?: boolean,
    steps?: NoticeSteps,
  ): Promise<void>;
}

export interface Waitlist {
  /** One pool's line, or every line, oldest first, with places. */
  entries(poolId?: string): Promise<(WaitlistEntry & { place: number })[]>;
  /** Moves a request to `toIndex` (0-based) in its line; its new place, or undefined when not waiting. */
  move(requestId: string, toIndex: number, actor?: string): Promise<number | undefined>;
  /** Takes a request out of the line (an admin's removal, a cancellation); the entry, or undefined. */
  remove(requestId: string, actor?: string): Promise<WaitlistEntry | undefined>;
  /** Gives the pool's free seats to the requests in line, first come first served. */
  seatFreed(poolId: string, opts?: { priority?: Priority }): Promise<SeatFreedResult>;
  /**
   * "A seat may be free in pool X", from a revoke or an end-date change made in License Desk: runs
   * seatFreed in the background when somebody waits for that pool, and does nothing otherwise.
   */
  noticeSeat(poolId: string | undefined): void;
  /**
   * A revoke made in License Desk freed a seat of `poolId`: like noticeSeat, but says where the seat
   * went, waiting at most `waitMs` (default 5 s) for the run; a run still going keeps going in the
   * background and the answer is who is first in line.
   */
  handOn(poolId: string, waitMs?: number): Promise<SeatHandOn>;
  /** Pools with somebody waiting. */
  waitingPools(): Promise<string[]>;
  /** Seats offered, then claimed (WAITLIST_OFFER_HOURS above 0); unset: a freed seat is assigned at once. */
  offers?: Offers;
  /** Waits for the background seatFreed runs started by noticeSeat (at most `timeoutMs`, default 5 s). */
  stop(timeoutMs?: number): Promise<void>;
}

export interface WaitlistOptions {
  store: WaitlistStore;
  licensing: Pick<LicensingClient, 'pools'>;
  /** The assign use case for a waiting request (it was already approved). */
  assignWaitlisted: (entry: WaitlistEntry) => Promise<WaitlistAssignOutcome>;
  audit?: { record(entry: AuditEntry): Promise<void> };
  lock?: PoolLock;
  /** Seats offered rather than assigned (docs/leavers-and-offers.md#seats-offered-then-claimed); unset: assigned at once. */
  offers?: Offers | undefined;
  now: () => Date;
  logger: Logger;
}

/** One run per pool at a time in this process: later runs wait for the earlier ones, in order. */
export function createLocalPoolLock(): PoolLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(poolId, fn) {
      const before = tails.get(poolId) ?? Promise.resolve();
      const mine = before.then(fn, fn);
      const tail = mine.catch(() => undefined);
      tails.set(poolId, tail);
      void tail.then(() => {
        if (tails.get(poolId) === tail) tails.delete(poolId);
      });
      return mine;
    },
  };
}

/** Logs what a seat notice's round gave. */
function logRound(logger: Logger, poolId: string, result: SeatFreedResult): void {
  logger.info('waitlist: seat notice handled', {
    poolId,
    free: result.free,
    assigned: result.assigned.length,
    skipped: result.skipped.length,
  });
}

/** The waitlist's audit entries: a trail that does not answer is logged, never the round's failure. */
function auditOf(opts: WaitlistOptions) {
  return async (entry: Omit<AuditEntry, 'at'>): Promise<void> => {
    try {
      await opts.audit?.record({ at: opts.now().toISOString(), ...entry });
    } catch (error) {
      opts.logger.warn('waitlist: could not record the audit entry', { error: String(error) });
    }
  };
}

/** After a run that gave nothing: who still waits first (held), or the seat stayed in the pool. */
async function firstOrPool(store: WaitlistStore, poolId: string): Promise<SeatHandOn> {
  const head = await firstIn(store, poolId).catch(() => undefined);
  return head ? { kind: 'waiting', first: head.requester } : { kind: 'pool' };
}

const NOT_GIVEN = 'waitlist: could not give the freed seat; the background check tries again';

export function createWaitlist(opts: WaitlistOptions): Waitlist {
  const { store, logger } = opts;
  const lock = opts.lock ?? createLocalPoolLock();
  const running = new Set<Promise<unknown>>();
  const track = <T>(run: Promise<T>) => {
    running.add(run);
    void run.finally(() => running.delete(run));
    return run;
  };

  const audit = auditOf(opts);
  const round: RoundContext = { ...opts, audit };
  const headOrPool = (poolId: string) => firstOrPool(store, poolId);

  const waitlist: Waitlist = {
    ...(opts.offers && opts.offers.settings.hours > 0 ? { offers: opts.offers } : {}),
    // The line as the person asking sees it: only the pools their role covers (request-scope.ts).
    async entries(poolId) {
      return withinScope(currentScope(), entriesOf(await store.lines(poolId), poolId), (e) => e.poolId);
    },
    async move(requestId, toIndex, actor) {
      const place = await store.moveTo(requestId, toIndex);
      if (place !== undefined && actor) {
        const lines = await store.lines();
        const poolId = poolOf(lines, requestId);
        const moved = poolId ? lines[poolId]?.find((e) => e.requestId === requestId) : undefined;
        await audit({
          actor,
          action: 'waitlist-moved',
          outcome: 'done',
          ...(poolId ? { poolId } : {}),
          ...(moved ? whose(moved) : { requestId }),
          place,
        });
      }
      return place;
    },
    async remove(requestId, actor) {
      const removed = await store.leave(requestId);
      if (removed && actor) {
        await audit({ actor, action: 'waitlist-removed', outcome: 'done', poolId: removed.poolId, ...whose(removed) });
      }
      return removed;
    },
    seatFreed(poolId, { priority = 'interactive' } = {}) {
      return lock.run(poolId, () => giveSeats(round, poolId, priority));
    },
    noticeSeat(poolId) {
      if (!poolId) return;
      const run = (async () => {
        if (!(await firstIn(store, poolId))) return;
        logRound(logger, poolId, await waitlist.seatFreed(poolId));
      })().catch((error: unknown) => logger.warn(NOT_GIVEN, { poolId, error: String(error) }));
      track(run);
    },
    async handOn(poolId, waitMs = 5000) {
      const first = await firstIn(store, poolId);
      if (!first) return { kind: 'pool' };
      const run = track(
        waitlist.seatFreed(poolId).then(
          (result): SeatHandOn | Promise<SeatHandOn> => {
            logRound(logger, poolId, result);
            if (result.ended) return { kind: 'ended' };
            const given = result.assigned[0];
            if (given) return { kind: 'given', to: given.entry.requester, licenseId: given.licenseId };
            const offered = result.offered?.[0];
            if (offered) return { kind: 'offered', to: offered.entry.requester, deadlineAt: offered.deadlineAt };
            return headOrPool(poolId);
          },
          (error: unknown): Promise<SeatHandOn> => {
            logger.warn(NOT_GIVEN, { poolId, error: String(error) });
            return headOrPool(poolId);
          },
        ),
      );
      return within(run, waitMs, { kind: 'waiting', first: first.requester });
    },
    async waitingPools() {
      return Object.keys(await store.lines()).sort();
    },
    async stop(timeoutMs = 5000) {
      if (running.size === 0) return;
      await within(
        Promise.all(running).then(() => undefined),
        timeoutMs,
        undefined,
      );
    },
  };
  return waitlist;
}

/** What `run` gives, or `late` once `ms` have passed (the run goes on). */
async function within<T>(run: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  try {
    return await Promise.race([run, bound]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
