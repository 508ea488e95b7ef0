/**
 * What the licensing service may report that cannot be true of a pool: a negative count, more seats
 * assigned than the pool has, no course title, an end before the start. The client accepts such a pool
 * (one odd pool must not hide every other one), the views clamp what they must and flag the rest, and
 * the client logs each odd pool once. Pure.
 */
import type { Pool } from './types.js';

export type CountField = 'licenses' | 'assignedLicenses' | 'availableLicenses';

export type PoolOddity =
  | { kind: 'negative'; field: CountField; value: number }
  | { kind: 'assigned-over-total'; assigned: number; total: number }
  | { kind: 'missing-title' }
  | { kind: 'end-before-start' };

const COUNT_FIELDS: readonly CountField[] = ['availableLicenses', 'assignedLicenses', 'licenses'];

export function poolOddities(
  pool: Pick<Pool, 'course' | 'start' | 'end' | 'licenses' | 'assignedLicenses' | 'availableLicenses'>,
): PoolOddity[] {
  const odd: PoolOddity[] = [];
  for (const field of COUNT_FIELDS) if (pool[field] < 0) odd.push({ kind: 'negative', field, value: pool[field] });
  if (pool.licenses >= 0 && pool.assignedLicenses > pool.licenses) {
    odd.push({ kind: 'assigned-over-total', assigned: pool.assignedLicenses, total: pool.licenses });
  }
  if (pool.course.title.trim() === '') odd.push({ kind: 'missing-title' });
  const start = Date.parse(pool.start);
  const end = Date.parse(pool.end);
  if (!Number.isNaN(start) && !Number.isNaN(end) && end < start) odd.push({ kind: 'end-before-start' });
  return odd;
}

/** The counts a view shows: none below zero (an odd pool's raw numbers are in its flags). */
export function shownCounts(pool: Pick<Pool, 'licenses' | 'assignedLicenses' | 'availableLicenses'>) {
  return {
    licenses: Math.max(0, pool.licenses),
    assignedLicenses: Math.max(0, pool.assignedLicenses),
    availableLicenses: Math.max(0, pool.availableLicenses),
  };
}

/** The course's name where the service sent none. */
export function courseLabel(course: Pool['course']): string {
  return course.title.trim() === '' ? `Course ${course.id}` : course.title;
}
