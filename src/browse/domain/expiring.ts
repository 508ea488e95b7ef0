/**
 * Which active licenses end soon, and how soon, in whole calendar days (UTC, like every day count in
 * License Desk): a license ending later today has 0 days left, tomorrow 1, and so on. "Within 3 days"
 * means at most 3 days left, so a row that says "ends in 3 days" is always in `expiring 3`. Pure.
 */
import { calendarDaysUntil } from '../../kernel/domain/time.js';
import type { License, Pool } from '../../kernel/domain/types.js';

/** `/licenses expiring` without a number. */
export const DEFAULT_EXPIRING_DAYS = 14;

export interface ExpiringLicense {
  license: License;
  /** Undefined when the license's pool is not among the pools read (the row still shows). */
  pool: Pool | undefined;
  /** Calendar days (UTC) from today to the license's end day: 0 today, 1 tomorrow. */
  daysLeft: number;
}

/** Days left for a license still running; undefined when it has ended, is inactive or has no readable end. */
export function daysLeft(license: Pick<License, 'active' | 'end'>, now: Date): number | undefined {
  const end = Date.parse(license.end);
  if (!license.active || Number.isNaN(end) || end <= now.getTime()) return undefined;
  return calendarDaysUntil(license.end, now);
}

/** The licenses with at most `days` days left, soonest first (then by student, then id, for stable pages). */
export function expiringWithin(
  licenses: readonly License[],
  poolsById: ReadonlyMap<string, Pool>,
  days: number,
  now: Date,
): ExpiringLicense[] {
  const rows: ExpiringLicense[] = [];
  for (const license of licenses) {
    const left = daysLeft(license, now);
    if (left !== undefined && left <= days) rows.push({ license, pool: poolsById.get(license.poolId), daysLeft: left });
  }
  return rows.sort(
    (a, b) =>
      Date.parse(a.license.end) - Date.parse(b.license.end) ||
      a.license.student.name.localeCompare(b.license.student.name) ||
      a.license.id.localeCompare(b.license.id),
  );
}
