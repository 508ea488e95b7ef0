/**
 * The waitlist of approved course requests for full pools: first in, first out per pool, reordered
 * and trimmed by license admins. Pure rules on plain data; src/requests/services/waitlist.ts persists them and
 * gives freed seats away (docs/waitlist.md).
 */
import type { CourseRequest } from './requests.js';

/**
 * What the waitlist needs of a course request. A minimal local copy of the request type: the
 * requests module's `CourseRequest` (id, requester, poolId, courseTitle, decidedBy, …) replaces it
 * when both land, and is assignable to it as it stands.
 */
export interface WaitlistedRequest {
  id: string;
  poolId: string;
  /** Slack user id of the person who asked. */
  requester: string;
  /** Slack user id of the admin who approved the request. */
  decidedBy?: string;
  courseTitle?: string;
}

/** One place in a pool's line. */
export interface WaitlistEntry {
  requestId: string;
  poolId: string;
  requester: string;
  approver?: string;
  courseTitle?: string;
  /** ISO time it joined the line. */
  since: string;
}

/** Every pool's line, oldest first. */
export type WaitlistLines = Record<string, WaitlistEntry[]>;

/** What the injected assign made of one waiting request when a seat was free. */
export type WaitlistAssignOutcome =
  /** The request got the seat. */
  | { kind: 'assigned'; licenseId: string; endDate?: string }
  /** This request can never take the seat (the person left, their domain is not allowed, already
   *  enrolled …): it leaves the line with the reason, and the seat goes to the next one. */
  | { kind: 'skipped'; reason: string }
  /**
   * The request left the line before this round could give it the seat (another replica gave it one,
   * or it was cancelled or removed meanwhile): nothing was sent and nothing failed, so nothing is
   * audited; `tookSeat` when it got a seat that way (one fewer free).
   */
  | { kind: 'left'; tookSeat: boolean }
  /** Nothing was decided (no seat after all, the licensing service is down, the outcome is unknown):
   *  the request keeps its place and the round stops. */
  | { kind: 'held'; reason: string };

/**
 * Where the seat a revoke freed went, when License Desk keeps a waitlist (services/waitlist.ts
 * `handOn`), so that the revoke's answer says what is true.
 */
export type SeatHandOn =
  /** Nobody waits for the pool (or nobody in line could take it): the seat is back in the pool. */
  | { kind: 'pool' }
  /** The first in line who could take it got it: the requester's Slack user id and their license. */
  | { kind: 'given'; to: string; licenseId: string }
  /** Somebody waits but has no seat yet (the assign is still running, or was held): who is first. */
  | { kind: 'waiting'; first: string }
  /** Offered to the first in line (WAITLIST_OFFER_HOURS): held for them until the deadline. */
  | { kind: 'offered'; to: string; deadlineAt: string }
  /** The pool has ended: no seat is free for anybody, and nobody in line can ever get one. */
  | { kind: 'ended' };

/** A waitlist entry as the waitlist shows it, derived from the request (its line is its pool's). */
export function entryOfRequest(r: CourseRequest): WaitlistEntry {
  return entryOf(r, r.waitlistedAt ?? r.decidedAt ?? r.createdAt);
}

/** The request's place in its pool's line, joined `at` (an ISO time, or a Date). */
export function entryOf(request: WaitlistedRequest, at: Date | string): WaitlistEntry {
  return {
    requestId: request.id,
    poolId: request.poolId,
    requester: request.requester,
    ...(request.decidedBy ? { approver: request.decidedBy } : {}),
    ...(request.courseTitle ? { courseTitle: request.courseTitle } : {}),
    since: typeof at === 'string' ? at : at.toISOString(),
  };
}

/** The pool id holding `requestId`, if any. */
export function poolOf(lines: WaitlistLines, requestId: string): string | undefined {
  for (const [poolId, line] of Object.entries(lines)) {
    if (line.some((e) => e.requestId === requestId)) return poolId;
  }
  return undefined;
}

/**
 * Adds `entry` at the end of its pool's line and returns its place (1-based). A request already
 * waiting keeps the place it has (a repeated approval queues nobody twice).
 */
export function addEntry(lines: WaitlistLines, entry: WaitlistEntry): number {
  const line = lines[entry.poolId] ?? [];
  const at = line.findIndex((e) => e.requestId === entry.requestId);
  if (at >= 0) return at + 1;
  if (poolOf(lines, entry.requestId) !== undefined) removeEntry(lines, entry.requestId);
  line.push(entry);
  lines[entry.poolId] = line;
  return line.length;
}

/** Removes the request from whichever line holds it; the entry removed, or undefined. */
export function removeEntry(lines: WaitlistLines, requestId: string): WaitlistEntry | undefined {
  const poolId = poolOf(lines, requestId);
  if (poolId === undefined) return undefined;
  const line = lines[poolId] ?? [];
  const at = line.findIndex((e) => e.requestId === requestId);
  const [removed] = line.splice(at, 1);
  if (line.length === 0) delete lines[poolId];
  return removed;
}

/**
 * Moves the request to `toIndex` (0-based) within its pool's line, clamped to the line; its new
 * place (1-based), or undefined when it is not waiting.
 */
export function moveEntry(lines: WaitlistLines, requestId: string, toIndex: number): number | undefined {
  const poolId = poolOf(lines, requestId);
  if (poolId === undefined) return undefined;
  const line = lines[poolId] ?? [];
  const from = line.findIndex((e) => e.requestId === requestId);
  const to = Math.max(0, Math.min(line.length - 1, Number.isFinite(toIndex) ? Math.trunc(toIndex) : from));
  const [entry] = line.splice(from, 1);
  if (entry) line.splice(to, 0, entry);
  return to + 1;
}

/** A pool's line, or every line (pools in id order), oldest first, each entry with its place. */
export function entriesOf(lines: WaitlistLines, poolId?: string): (WaitlistEntry & { place: number })[] {
  const pools = poolId === undefined ? Object.keys(lines).sort() : [poolId];
  return pools.flatMap((p) => (lines[p] ?? []).map((e, i) => ({ ...e, place: i + 1 })));
}

/** The lines as read from a file, or undefined when they are not what we wrote (keeps what parses). */
export function parseLines(value: unknown): WaitlistLines | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: WaitlistLines = {};
  for (const [poolId, line] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(line)) return undefined;
    const ok = line.filter(
      (e): e is WaitlistEntry =>
        typeof e === 'object' &&
        e !== null &&
        typeof (e as WaitlistEntry).requestId === 'string' &&
        (e as WaitlistEntry).poolId === poolId &&
        typeof (e as WaitlistEntry).requester === 'string' &&
        typeof (e as WaitlistEntry).since === 'string',
    );
    if (ok.length > 0) out[poolId] = ok;
  }
  return out;
}
