/** Warnings shown next to a pool: it is full, it ends within 30 days, or it has ended. Pure. */

import { calendarDaysUntil } from './time.js';
import type { Pool } from './types.js';

export type PoolWarning = 'full' | 'ending-soon' | 'ended';

export const POOL_ENDING_SOON_DAYS = 30;

export function poolWarnings(pool: Pick<Pool, 'end' | 'availableLicenses' | 'licenses'>, now: Date): PoolWarning[] {
  const warnings: PoolWarning[] = [];
  const end = Date.parse(pool.end);
  const ended = !Number.isNaN(end) && end <= now.getTime();
  // A pool that has ended is "ended", not also "full": nobody can assign from it either way.
  if (ended) return ['ended'];
  if (pool.availableLicenses <= 0) warnings.push('full');
  if (!Number.isNaN(end) && (calendarDaysUntil(pool.end, now) ?? 0) <= POOL_ENDING_SOON_DAYS)
    warnings.push('ending-soon');
  return warnings;
}
