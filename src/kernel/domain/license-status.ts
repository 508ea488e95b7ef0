/**
 * What a license is right now, and which changes its flags and the API's rules allow
 * (licensing-api.md, PATCH and DELETE rules). Pure: every rule takes `now`.
 */

import { dayOf } from './end-date.js';
import { calendarDaysUntil } from './time.js';
import type { License, Pool } from './types.js';

export type LicenseStatus = 'active' | 'ending-soon' | 'expired' | 'inactive';

/** A license at most this many calendar days from its end (`calendarDaysUntil`) counts as ending soon. */
export const ENDING_SOON_DAYS = 7;

export function licenseStatus(license: Pick<License, 'active' | 'end'>, now: Date): LicenseStatus {
  if (!license.active) return 'inactive';
  const end = Date.parse(license.end);
  // An unparsable end is treated as still running: the API validated it, so hiding the license is worse.
  if (Number.isNaN(end)) return 'active';
  if (end <= now.getTime()) return 'expired';
  return (calendarDaysUntil(license.end, now) ?? 0) <= ENDING_SOON_DAYS ? 'ending-soon' : 'active';
}

export function isRunning(status: LicenseStatus): boolean {
  return status === 'active' || status === 'ending-soon';
}

/**
 * PATCH /v1/license/{id}: only on a transferable pool and a license that has not expired; the
 * `editable` flag is the server's own verdict. Without the pool we cannot know, so we do not offer it.
 */
export function canChangeEndDate(
  license: Pick<License, 'active' | 'end' | 'editable'>,
  pool: Pick<Pool, 'transferable'> | undefined,
  now: Date,
): boolean {
  return license.editable && pool?.transferable === true && isRunning(licenseStatus(license, now));
}

/**
 * A later end is possible: the end can change and the license ends before its pool does (the end
 * can never pass the pool end). A license that already ends with its pool can only end earlier, so
 * "Extend" is not offered for it.
 */
export function canExtend(
  license: Pick<License, 'active' | 'end' | 'editable'>,
  pool: Pick<Pool, 'transferable' | 'end'> | undefined,
  now: Date,
): boolean {
  return canChangeEndDate(license, pool, now) && !endsWithPool(license, pool);
}

/** The license ends on its pool's last day (or after it): no later end date is possible. */
export function endsWithPool(license: Pick<License, 'end'>, pool: Pick<Pool, 'end'> | undefined): boolean {
  const end = dayOf(license.end);
  const poolEnd = pool ? dayOf(pool.end) : '';
  return end !== '' && poolEnd !== '' && end >= poolEnd;
}

/** DELETE /v1/license/{id}: offered only where `revokable` is true and the license still runs. */
export function canRevoke(license: Pick<License, 'active' | 'end' | 'revokable'>, now: Date): boolean {
  return license.revokable && isRunning(licenseStatus(license, now));
}
