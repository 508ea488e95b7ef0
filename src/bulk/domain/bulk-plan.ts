/**
 * The dry run of a bulk assignment: each row's verdict, and seats needed against seats free. Pure;
 * the service reads the pool, the allowed domains and who is already enrolled, then calls this.
 * The checks mirror the API's own rules (licensing-api.md, POST assign; -extras.md, allowed domains)
 * so that the job itself meets few refusals.
 */

import { recycleOrder } from '../../changes/index.js';
import { count } from '../../kernel/domain/count.js';
import { isDomainAllowed } from '../../kernel/domain/email.js';
import { type AssignDateProblem, checkAssignEndDate, dayText, parseDay } from '../../kernel/domain/end-date.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import { type BulkLine, isEmail } from './bulk-list.js';

export type RowVerdict = 'ready' | 'invalid-email' | 'domain-not-allowed' | 'already-enrolled' | 'duplicate';

export interface PlannedRow extends BulkLine {
  verdict: RowVerdict;
  /** Ready rows past the free seats: sent with recycle, only after the manager confirmed it. */
  recycle?: boolean;
}

export interface BulkPlan {
  rows: PlannedRow[];
  ready: number;
  seatsFree: number;
  /** Ready rows beyond the free seats. */
  shortfall: number;
  /** 'ok': enough seats; 'recycle': a transferable pool can free `shortfall` seats after a confirmation;
   *  'blocked': not enough seats and no way to free them (see `blockedReason`). */
  seats: 'ok' | 'recycle' | 'blocked';
  blockedReason?: string;
  /** The licenses that recycling would end: the pool's oldest active ones (the API's own rule). */
  toFree: License[];
}

export interface PlanInput {
  rows: readonly BulkLine[];
  pool: Pool;
  allowedDomains: readonly string[];
  /** Lower-case e-mails holding an active license for the pool's course (any of its pools). */
  enrolled: ReadonlySet<string>;
  /** The pool's active licenses, for naming the seats recycling would free. */
  poolLicenses: readonly License[];
}

export function verdictOf(
  row: BulkLine,
  pool: Pick<Pool, 'transferable'>,
  allowed: readonly string[],
  enrolled: ReadonlySet<string>,
  seen: Set<string>,
): RowVerdict {
  if (!isEmail(row.email)) return 'invalid-email';
  const key = row.email.toLowerCase();
  if (seen.has(key)) return 'duplicate';
  seen.add(key);
  if (pool.transferable && !isDomainAllowed(row.email, allowed)) {
    return 'domain-not-allowed';
  }
  return enrolled.has(key) ? 'already-enrolled' : 'ready';
}

export function planBulk(input: PlanInput): BulkPlan {
  const allowed = input.allowedDomains;
  const seen = new Set<string>();
  const seatsFree = Math.max(0, input.pool.availableLicenses);
  let ready = 0;
  const rows: PlannedRow[] = input.rows.map((row) => {
    const verdict = verdictOf(row, input.pool, allowed, input.enrolled, seen);
    if (verdict !== 'ready') return { ...row, verdict };
    ready++;
    return ready > seatsFree ? { ...row, verdict, recycle: true } : { ...row, verdict };
  });
  const shortfall = Math.max(0, ready - seatsFree);
  const base = { rows, ready, seatsFree, shortfall };
  if (shortfall === 0) return { ...base, seats: 'ok', toFree: [] };
  // recycle.ts's order. Its `now` filter (an active license already past its end is no candidate) waits
  // for `now` to reach the plan: dryRunBulk's callers do not pass it yet.
  const active = input.poolLicenses.filter((l) => l.active).sort(recycleOrder);
  if (!input.pool.transferable) {
    return {
      ...base,
      seats: 'blocked',
      blockedReason: `This pool is not transferable: it has ${count(seatsFree, 'free seat')} for ${count(ready, 'student')}, and its seats cannot be freed. Remove ${shortfall} line${shortfall === 1 ? '' : 's'} or choose another pool.`,
      toFree: [],
    };
  }
  // Recycling more seats than the pool had holders would end licenses this very job assigned.
  if (shortfall > active.length) {
    return {
      ...base,
      seats: 'blocked',
      blockedReason: `The pool has ${count(input.pool.licenses, 'seat')} in all, fewer than the ${count(ready, 'student')} listed. Split the list or choose a bigger pool.`,
      toFree: [],
    };
  }
  return { ...base, seats: 'recycle', toFree: active.slice(0, shortfall) };
}

const ASSIGN_DATE_PROBLEM: Record<AssignDateProblem, (pool: Pick<Pool, 'start' | 'end'>) => string> = {
  past: () => 'The end date is in the past; pick today or later, or leave it empty for the pool end.',
  'after-pool-end': (pool) => `The pool ends on ${dayText(pool.end)}; a license cannot end after its pool.`,
  'before-pool-start': (pool) => `The pool starts on ${dayText(pool.start)}; pick a later date.`,
};

/** The optional end date: a real day, not in the past, within the pool's validity. Undefined when fine. */
export function endDateProblem(endDate: string, pool: Pick<Pool, 'start' | 'end'>, now: Date): string | undefined {
  const day = parseDay(endDate);
  if (day === undefined) return 'Pick a date from the calendar.';
  const problem = checkAssignEndDate(day, pool, now);
  return problem && ASSIGN_DATE_PROBLEM[problem](pool);
}

export interface BulkDraft {
  id: string;
  requester: string;
  pool: Pool;
  endDate?: string;
  plan: BulkPlan;
  createdAt: number;
}

/**
 * How the dry run learns who already holds the course. Three ways, each priced in requests before any is
 * sent, from the pools list it has already read (n: distinct e-mails left to check; P: the page size of a
 * list walk, 100 unless the server refused it; a walk stops on its first short page, hence the `+ 1`):
 *
 * - 'lookup': one GET /v1/student?email= per e-mail (licensing-api-extras.md): n.
 * - 'pools': every page of the active licenses of each pool of the course that has any assigned:
 *   sum over those pools of (floor(assigned / P) + 1). Grows with the pools of the course.
 * - 'licenses': every page of GET /v1/licenses (active licenses of every pool, each carrying its course):
 *   floor(total assigned / P) + 1. Grows with the account's licenses, never with pools per course.
 *
 * The cheapest wins, so the cost is at most min(n, licenses walk) whatever the number of pools per
 * course. Ties go to the walks, which also give the pool's licenses for a recycle without another read.
 * `assignedLicenses` counts every active license (and, in an untransferable pool, expired ones too),
 * so both walk prices are upper bounds; a negative count reported by the service is read as 0.
 */
export type EnrolmentRead = 'lookup' | 'pools' | 'licenses';

export interface EnrolmentReadChoice {
  way: EnrolmentRead;
  /** Requests each way would cost. */
  cost: Record<EnrolmentRead, number>;
}

export function chooseEnrolmentRead(input: {
  emails: number;
  pools: readonly Pick<Pool, 'course' | 'assignedLicenses'>[];
  courseId: string;
  pageSize: number;
}): EnrolmentReadChoice {
  const size = Math.max(1, input.pageSize);
  const pages = (assigned: number) => Math.floor(Math.max(0, assigned) / size) + 1;
  let poolsCost = 0;
  let total = 0;
  for (const p of input.pools) {
    total += Math.max(0, p.assignedLicenses);
    if (p.course.id === input.courseId && p.assignedLicenses > 0) poolsCost += pages(p.assignedLicenses);
  }
  const cost: Record<EnrolmentRead, number> = { lookup: input.emails, pools: poolsCost, licenses: pages(total) };
  const way = (['pools', 'licenses', 'lookup'] as const).reduce((best, w) => (cost[w] < cost[best] ? w : best));
  return { way, cost };
}
