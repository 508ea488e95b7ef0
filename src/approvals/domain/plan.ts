/**
 * The rules of approving many at once, pure: the waiting list's pages and groups, what the
 * confirmation says will happen in a pool with fewer free seats than requests selected, and the
 * tally of what each decision came to.
 */
import type { CourseRequest } from '../../requests/index.js';
import { PAGE_SIZE, PER_GROUP } from './selection.js';

/** One pool's free seats as read for the list (undefined: it could not be read, or the pool is gone). */
export type FreeSeats = ReadonlyMap<string, number>;

/** A run of requests of one pool on a page, at most PER_GROUP: one checkbox group. */
export interface Group {
  poolId: string;
  courseTitle: string;
  requests: CourseRequest[];
}

/** The waiting requests oldest first. */
export function oldestFirst(requests: readonly CourseRequest[]): CourseRequest[] {
  return [...requests].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Page `page` of the list (oldest first), cut into groups of one pool and at most PER_GROUP requests. */
export function groupsOfPage(requests: readonly CourseRequest[], page: number): Group[] {
  const shown = requests.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  const groups: Group[] = [];
  for (const r of shown) {
    const last = groups.at(-1);
    if (last && last.poolId === r.poolId && last.requests.length < PER_GROUP) last.requests.push(r);
    else groups.push({ poolId: r.poolId, courseTitle: r.courseTitle, requests: [r] });
  }
  return groups;
}

/** What approving the selection does in one pool: the oldest `assigned` get a seat, the `rest` do not. */
export interface PoolPlan {
  poolId: string;
  courseTitle: string;
  selected: number;
  /** Undefined when the free seats could not be read. */
  free: number | undefined;
  assigned: number;
  rest: number;
}

/** Per pool of the selection, in the order of its oldest request: how many fit in the free seats. */
export function planPools(selected: readonly CourseRequest[], free: FreeSeats): PoolPlan[] {
  const plans = new Map<string, PoolPlan>();
  for (const r of oldestFirst(selected)) {
    const plan = plans.get(r.poolId) ?? {
      poolId: r.poolId,
      courseTitle: r.courseTitle,
      selected: 0,
      free: free.get(r.poolId),
      assigned: 0,
      rest: 0,
    };
    plan.selected += 1;
    plans.set(r.poolId, plan);
  }
  for (const plan of plans.values()) {
    const seats = plan.free === undefined ? plan.selected : Math.max(0, plan.free);
    plan.assigned = Math.min(seats, plan.selected);
    plan.rest = plan.selected - plan.assigned;
  }
  return [...plans.values()];
}

/** What one decision of a bulk decision came to. */
export type DecisionResult =
  | 'assigned'
  | 'waitlisted'
  /** Approved for a full pool without a waitlist: its card offers to free a seat. */
  | 'awaiting-seat'
  | 'denied'
  /** Decided by someone else meanwhile (or gone): nothing done. */
  | 'skipped'
  /** Not done (a rule, the licensing service, the records): the request is still waiting. */
  | 'failed'
  /** The write's answer was lost: it is read back and its requester told then. */
  | 'unknown';

export interface DecisionLine {
  requestId: string;
  requester: string;
  courseTitle: string;
  result: DecisionResult;
  /** Why it was skipped or failed, in plain words. */
  why?: string;
}

/** Where a bulk decision stands: every decision taken so far, of `total`. */
export interface Tally {
  kind: 'approve' | 'deny';
  total: number;
  lines: DecisionLine[];
  /** Set when the run ended: 'done', or 'stopped' by a restart before the rest were decided. */
  ended?: 'done' | 'stopped';
}

export function countOf(tally: Tally, result: DecisionResult): number {
  return tally.lines.filter((l) => l.result === result).length;
}
