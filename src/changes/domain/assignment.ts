/**
 * Which pools a new license may come from, and the checks made before POST /v1/pool/{id}/license
 * (licensing-api.md, POST assign rules; extras: allowed domains). Pure: rules take `now`. The service
 * stays the final judge; these only spare the manager a round trip and a refusal.
 */

import { isDomainAllowed } from '../../kernel/domain/email.js';
import { type AssignDateProblem, checkAssignEndDate } from '../../kernel/domain/end-date.js';
import type { Pool } from '../../kernel/domain/types.js';

export type PoolBlocker = 'ended' | 'full-untransferable';

export function isFull(pool: Pick<Pool, 'availableLicenses'>): boolean {
  return pool.availableLicenses <= 0;
}

/** A pool that can never give a seat now: it ended, or it is full and cannot recycle (rule 4). */
export function poolBlocker(pool: Pool, now: Date): PoolBlocker | undefined {
  const end = Date.parse(pool.end);
  if (!Number.isNaN(end) && end <= now.getTime()) return 'ended';
  if (isFull(pool) && !pool.transferable) return 'full-untransferable';
  return undefined;
}

/** A full transferable pool gives a seat only by recycling one (rule 4), after a confirmation. */
export function needsRecycle(pool: Pool): boolean {
  return isFull(pool) && pool.transferable;
}

export interface AssignmentInput {
  pool: Pool;
  email: string;
  /** YYYY-MM-DD, or undefined for the pool end. */
  endDate: string | undefined;
  allowedDomains: readonly string[];
  /** The manager ticked "free a seat" (only meaningful for a full transferable pool). */
  recycle: boolean;
}

export type AssignmentProblem =
  | { field: 'pool'; kind: PoolBlocker | 'full-needs-recycle' }
  | { field: 'email'; kind: 'domain'; allowed: readonly string[] }
  | { field: 'endDate'; kind: AssignDateProblem; poolEnd: string };

export function validateAssignment(input: AssignmentInput, now: Date): AssignmentProblem[] {
  const { pool } = input;
  const problems: AssignmentProblem[] = [];
  const blocker = poolBlocker(pool, now);
  if (blocker) problems.push({ field: 'pool', kind: blocker });
  else if (needsRecycle(pool) && !input.recycle) problems.push({ field: 'pool', kind: 'full-needs-recycle' });
  if (pool.transferable && !isDomainAllowed(input.email, input.allowedDomains)) {
    problems.push({ field: 'email', kind: 'domain', allowed: input.allowedDomains });
  }
  if (input.endDate !== undefined) {
    const kind = checkAssignEndDate(input.endDate, pool, now);
    if (kind) problems.push({ field: 'endDate', kind, poolEnd: pool.end });
  }
  return problems;
}

/** The student already holds an active license for this course (rule 2), from GET /v1/student. */
export function activeEnrollment<T extends { id: string; licenseActive: boolean; end: string }>(
  courses: readonly T[],
  courseId: string,
  now: Date,
): T | undefined {
  return courses.find((c) => c.id === courseId && c.licenseActive && Date.parse(c.end) > now.getTime());
}
