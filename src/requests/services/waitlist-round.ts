/**
 * One round of a freed seat (services/waitlist.ts runs it under the pool's lock): the pool read fresh,
 * then each free seat offered to the first request in line through the injected assign, until the
 * seats or the line run out, or an assign is held; a request that can never take the seat leaves the
 * line with its reason and the seat goes to the next. Each seat given or refused is audited.
 */
import { poolBlocker } from '../../changes/index.js';
import type { Priority } from '../../kernel/licensing/limiter.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditEntry } from '../../kernel/services/audit.js';
import type { WaitlistStore } from '../db/request-store.js';
import type { Offers } from '../domain/offers.js';
import type { WaitlistAssignOutcome, WaitlistEntry } from '../domain/waitlist.js';

export interface SeatFreedResult {
  /** Seats the pool showed free when read (0 when nobody waited and nothing was read). */
  free: number;
  assigned: { entry: WaitlistEntry; licenseId: string }[];
  skipped: { entry: WaitlistEntry; reason: string }[];
  /** Why the round stopped with seats still free and requests waiting. */
  held?: string;
  /** The pool has ended: no seat was free for anybody, and the requests in line left it. */
  ended?: boolean;
  /** With offers on (WAITLIST_OFFER_HOURS above 0): the requests offered a seat this round, with its deadline. */
  offered?: { entry: WaitlistEntry; deadlineAt: string }[];
}

export interface RoundContext {
  store: WaitlistStore;
  licensing: Pick<LicensingClient, 'pools'>;
  assignWaitlisted: (entry: WaitlistEntry) => Promise<WaitlistAssignOutcome>;
  audit(entry: Omit<AuditEntry, 'at'>): Promise<void>;
  now: () => Date;
  logger: Logger;
  /** Seats offered rather than assigned (docs/leavers-and-offers.md#seats-offered-then-claimed); unset or 0 hours: assigned at once. */
  offers?: Pick<Offers, 'settings' | 'held' | 'offerTo'> | undefined;
}

/** Whose request, as facts: the audit names the requester with a mention and keeps the id out of its words. */
export const whose = (e: Pick<WaitlistEntry, 'requestId' | 'requester' | 'courseTitle'>) => ({
  requester: e.requester,
  requestId: e.requestId,
  ...(e.courseTitle ? { courseTitle: e.courseTitle } : {}),
});

/** The first request in a pool's line, or undefined when nobody waits. */
export async function firstIn(store: Pick<WaitlistStore, 'lines'>, poolId: string): Promise<WaitlistEntry | undefined> {
  return (await store.lines(poolId))[poolId]?.[0];
}

export async function giveSeats(w: RoundContext, poolId: string, priority: Priority): Promise<SeatFreedResult> {
  const result: SeatFreedResult = { free: 0, assigned: [], skipped: [] };
  if (!(await firstIn(w.store, poolId))) return result;
  // Inside the lock and never from the cache: a seat seen free here is free now.
  const pool = await w.licensing.pools.get(poolId, { priority, fresh: true });
  // An ended pool shows its seats as available, but none can be given: nobody in line ever gets
  // one, so each request leaves the line (the assign refuses it and closes it) and is told why.
  const ended = poolBlocker(pool, w.now()) === 'ended';
  if (ended) result.ended = true;
  result.free = ended ? 0 : Math.max(0, pool.availableLicenses);
  if (!ended && w.offers && w.offers.settings.hours > 0) return offerSeats(w, w.offers, poolId, result);
  let free = result.free;
  const left = new Set<string>();
  while (free > 0 || ended) {
    const head = await firstIn(w.store, poolId);
    if (!head) break;
    const outcome = await offer(w, head);
    if (outcome.kind === 'held') {
      result.held = outcome.reason;
      break;
    }
    if (outcome.kind === 'left') {
      if (outcome.tookSeat) free -= 1;
      // Still first in the lines read (a rank not cleared yet): stop here rather than ask again.
      if (left.has(head.requestId)) break;
      left.add(head.requestId);
      continue;
    }
    await w.store.leave(head.requestId);
    if (outcome.kind === 'assigned') free -= 1;
    await recordSeat(w, result, head, outcome, ended);
  }
  return result;
}

/**
 * Offers instead of assigns: each free seat not held by a live offer goes, as an offer, to the first
 * in line who holds none. The store makes an offer only while the pool's live offers are fewer than
 * its free seats, so two rounds at once (two replicas) never offer one seat twice.
 */
async function offerSeats(
  w: RoundContext,
  offers: NonNullable<RoundContext['offers']>,
  poolId: string,
  result: SeatFreedResult,
): Promise<SeatFreedResult> {
  const available = result.free;
  const held = await offers.held(poolId);
  const live = new Set(held.map((h) => h.requestId));
  let free = available - live.size;
  result.offered = [];
  while (free > 0) {
    const head = (await w.store.lines(poolId))[poolId]?.find((e) => !live.has(e.requestId));
    if (!head) break;
    live.add(head.requestId);
    const made = await offers.offerTo(head, available);
    if (made === 'no-free-seat') break;
    free -= 1;
    if (made === 'offered') {
      const mine = (await offers.held(poolId)).find((h) => h.requestId === head.requestId);
      result.offered.push({ entry: head, deadlineAt: mine?.deadlineAt ?? '' });
    }
  }
  return result;
}

/** The seat offered to the first in line; a held or left outcome is logged here. */
async function offer(w: RoundContext, head: WaitlistEntry): Promise<WaitlistAssignOutcome> {
  let outcome: WaitlistAssignOutcome;
  try {
    outcome = await w.assignWaitlisted(head);
  } catch (error) {
    outcome = { kind: 'held', reason: `the assign failed: ${String(error)}` };
  }
  const where = { poolId: head.poolId, requestId: head.requestId };
  if (outcome.kind === 'held') {
    w.logger.warn('waitlist: seat not given this time; the request keeps its place', {
      ...where,
      reason: outcome.reason,
    });
  } else if (outcome.kind === 'left') {
    // Not in line any more, by someone else's doing (a replica that gave it the seat first): no
    // audit entry, nobody told here; the seat it took is one fewer to give.
    w.logger.info('waitlist: the request left the line meanwhile; going on with the next', where);
  }
  return outcome;
}

/** A seat given, or a request that could never take it, in the round's result and the audit trail. */
async function recordSeat(
  w: RoundContext,
  result: SeatFreedResult,
  head: WaitlistEntry,
  outcome: Extract<WaitlistAssignOutcome, { kind: 'assigned' | 'skipped' }>,
  ended: boolean,
): Promise<void> {
  const base = {
    actor: head.approver ?? head.requester,
    poolId: head.poolId,
    action: 'assigned' as const,
    ...whose(head),
  };
  if (outcome.kind === 'assigned') {
    result.assigned.push({ entry: head, licenseId: outcome.licenseId });
    await w.audit({ ...base, outcome: 'done', licenseId: outcome.licenseId });
    return;
  }
  result.skipped.push({ entry: head, reason: outcome.reason });
  const detail = ended ? `the pool has ended, so no seat will free up for it (${outcome.reason})` : outcome.reason;
  await w.audit({ ...base, outcome: 'failed', detail });
}
