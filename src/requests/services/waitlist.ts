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

import { poolBlocker } from '../../changes/index.js';
import type { Priority } from '../../kernel/licensing/limiter.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditEntry } from '../../kernel/services/audit.js';
import type { DeliverySteps } from '../../kernel/services/outbox.js';
import {
  entriesOf,
  moveEntry,
  poolOf,
  removeEntry,
  type SeatHandOn,
  type WaitlistAssignOutcome,
  type WaitlistEntry,
  type WaitlistedRequest,
  type WaitlistLines,
} from '../domain/waitlist.js';

export type { SeatHandOn, WaitlistAssignOutcome, WaitlistEntry, WaitlistedRequest };

/** Where the lines live: read them, or change them atomically (the change's result is returned). */
export interface WaitlistStore {
  read(): Promise<WaitlistLines>;
  update<T>(change: (lines: WaitlistLines) => T): Promise<T>;
}

/** Runs `fn` while no other seatFreed of the same pool runs (in this process, or across replicas). */
export interface PoolLock {
  run<T>(poolId: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * What the people concerned are told; the Slack layer implements it (DMs), called by the outbox's
 * delivery. Throws when a DM failed, after trying every one (the outbox tries again; `steps` skips
 * the DMs sent).
 */
export interface WaitlistNotifier {
  /** The request got a seat; `passedOver` are the requests ahead of it that could not take it. */
  assigned(
    entry: WaitlistEntry,
    outcome: Extract<WaitlistAssignOutcome, { kind: 'assigned' }>,
    steps?: DeliverySteps,
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
    steps?: DeliverySteps,
  ): Promise<void>;
}

export interface SeatFreedResult {
  /** Seats the pool showed free when read (0 when nobody waited and nothing was read). */
  free: number;
  assigned: { entry: WaitlistEntry; licenseId: string }[];
  skipped: { entry: WaitlistEntry; reason: string }[];
  /** Why the round stopped with seats still free and requests waiting. */
  held?: string;
  /** The pool has ended: no seat was free for anybody, and the requests in line left it. */
  ended?: boolean;
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

export function createWaitlist(opts: WaitlistOptions): Waitlist {
  const { store, logger } = opts;
  const lock = opts.lock ?? createLocalPoolLock();
  const running = new Set<Promise<unknown>>();

  async function audit(entry: Omit<AuditEntry, 'at'>): Promise<void> {
    try {
      await opts.audit?.record({ at: opts.now().toISOString(), ...entry });
    } catch (error) {
      logger.warn('waitlist: could not record the audit entry', { error: String(error) });
    }
  }

  /** Whose request, as facts: the audit names the requester with a mention and keeps the id out of its words. */
  const whose = (e: Pick<WaitlistEntry, 'requestId' | 'requester' | 'courseTitle'>) => ({
    requester: e.requester,
    requestId: e.requestId,
    ...(e.courseTitle ? { courseTitle: e.courseTitle } : {}),
  });

  /** After a run that gave nothing: who still waits first (held), or the seat stayed in the pool. */
  async function headOrPool(poolId: string): Promise<SeatHandOn> {
    const head = await store
      .read()
      .then((lines) => lines[poolId]?.[0])
      .catch(() => undefined);
    return head ? { kind: 'waiting', first: head.requester } : { kind: 'pool' };
  }

  async function giveSeats(poolId: string, priority: Priority): Promise<SeatFreedResult> {
    const result: SeatFreedResult = { free: 0, assigned: [], skipped: [] };
    if (((await store.read())[poolId] ?? []).length === 0) return result;
    // Inside the lock and never from the cache: a seat seen free here is free now.
    const pool = await opts.licensing.pools.get(poolId, { priority, fresh: true });
    // An ended pool shows its seats as available, but none can be given: nobody in line ever gets
    // one, so each request leaves the line (the assign refuses it and closes it) and is told why.
    const ended = poolBlocker(pool, opts.now()) === 'ended';
    if (ended) result.ended = true;
    result.free = ended ? 0 : Math.max(0, pool.availableLicenses);
    let free = result.free;
    const left = new Set<string>();
    while (free > 0 || ended) {
      const head = (await store.read())[poolId]?.[0];
      if (!head) break;
      let outcome: WaitlistAssignOutcome;
      try {
        outcome = await opts.assignWaitlisted(head);
      } catch (error) {
        outcome = { kind: 'held', reason: `the assign failed: ${String(error)}` };
      }
      if (outcome.kind === 'held') {
        result.held = outcome.reason;
        logger.warn('waitlist: seat not given this time; the request keeps its place', {
          poolId,
          requestId: head.requestId,
          reason: outcome.reason,
        });
        break;
      }
      if (outcome.kind === 'left') {
        // Not in line any more, by someone else's doing (a replica that gave it the seat first): no
        // audit entry, nobody told here; the seat it took is one fewer to give.
        logger.info('waitlist: the request left the line meanwhile; going on with the next', {
          poolId,
          requestId: head.requestId,
        });
        if (outcome.tookSeat) free -= 1;
        // Still first in the lines read (a rank not cleared yet): stop here rather than ask again.
        if (left.has(head.requestId)) break;
        left.add(head.requestId);
        continue;
      }
      await store.update((lines) => removeEntry(lines, head.requestId));
      const base = { actor: head.approver ?? head.requester, poolId, ...whose(head) };
      if (outcome.kind === 'assigned') {
        free -= 1;
        result.assigned.push({ entry: head, licenseId: outcome.licenseId });
        await audit({
          ...base,
          action: 'assigned',
          outcome: 'done',
          licenseId: outcome.licenseId,
        });
      } else {
        result.skipped.push({ entry: head, reason: outcome.reason });
        await audit({
          ...base,
          action: 'assigned',
          outcome: 'failed',
          detail: ended ? `the pool has ended, so no seat will free up for it (${outcome.reason})` : outcome.reason,
        });
      }
    }
    return result;
  }

  const waitlist: Waitlist = {
    async entries(poolId) {
      return entriesOf(await store.read(), poolId);
    },
    async move(requestId, toIndex, actor) {
      const place = await store.update((lines) => moveEntry(lines, requestId, toIndex));
      if (place !== undefined && actor) {
        const lines = await store.read();
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
      const removed = await store.update((lines) => removeEntry(lines, requestId));
      if (removed && actor) {
        await audit({
          actor,
          action: 'waitlist-removed',
          outcome: 'done',
          poolId: removed.poolId,
          ...whose(removed),
        });
      }
      return removed;
    },
    seatFreed(poolId, { priority = 'interactive' } = {}) {
      return lock.run(poolId, () => giveSeats(poolId, priority));
    },
    noticeSeat(poolId) {
      if (!poolId) return;
      const run = (async () => {
        if (((await store.read())[poolId] ?? []).length === 0) return;
        const result = await waitlist.seatFreed(poolId);
        logger.info('waitlist: seat notice handled', {
          poolId,
          free: result.free,
          assigned: result.assigned.length,
          skipped: result.skipped.length,
        });
      })().catch((error: unknown) => {
        logger.warn('waitlist: could not give the freed seat; the background check tries again', {
          poolId,
          error: String(error),
        });
      });
      running.add(run);
      void run.finally(() => running.delete(run));
    },
    async handOn(poolId, waitMs = 5000) {
      const first = (await store.read())[poolId]?.[0];
      if (!first) return { kind: 'pool' };
      const run = waitlist.seatFreed(poolId).then(
        (result): SeatHandOn | Promise<SeatHandOn> => {
          logger.info('waitlist: seat notice handled', {
            poolId,
            free: result.free,
            assigned: result.assigned.length,
            skipped: result.skipped.length,
          });
          if (result.ended) return { kind: 'ended' };
          const given = result.assigned[0];
          if (given) return { kind: 'given', to: given.entry.requester, licenseId: given.licenseId };
          return headOrPool(poolId);
        },
        (error: unknown): Promise<SeatHandOn> => {
          logger.warn('waitlist: could not give the freed seat; the background check tries again', {
            poolId,
            error: String(error),
          });
          return headOrPool(poolId);
        },
      );
      running.add(run);
      void run.finally(() => running.delete(run));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<SeatHandOn>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'waiting', first: first.requester }), waitMs);
      });
      try {
        return await Promise.race([run, late]);
      } finally {
        if (timer) clearTimeout(timer);
      }
    },
    async waitingPools() {
      return Object.keys(await store.read()).sort();
    },
    async stop(timeoutMs = 5000) {
      if (running.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.all(running), bound]);
      if (timer) clearTimeout(timer);
    },
  };
  return waitlist;
}
