/**
 * The daily alert conditions, each with a key that names the condition once and for all, so that
 * the same condition is never announced twice (the service remembers sent keys across restarts).
 * Pure: takes `now` and the data, returns what is new.
 *
 * Keys:
 *   pool-full:<poolId>                          no seat left (a pool that has not ended)
 *   pool-nearly-full:<poolId>                   at least 90 % of the seats assigned, some left
 *   pool-ending:<poolId>:<endDay>:<60|30|7>     the pool ends within that many days
 *   license-ending:<licenseId>:<endDay>         an active license ends within 7 days
 * The end day is part of the ending keys: an end that moves is a new condition.
 */

import { dayOf } from '../../kernel/domain/end-date.js';
import { calendarDaysUntil, endOfDaysAhead } from '../../kernel/domain/time.js';
import type { License, Pool, StudentRef } from '../../kernel/domain/types.js';

/** When and where the daily alert check posts (ALERT_CHANNEL, ALERT_TIME, ALERT_TZ; src/kernel/config/config.ts). */
export interface AlertsConfig {
  /** ALERT_CHANNEL, else AUDIT_CHANNEL; none: alerts are off. */
  channel?: string;
  /** HH:MM, 24-hour, in timeZone. */
  time: string;
  /** IANA time zone name. */
  timeZone: string;
}

export const NEARLY_FULL_RATIO = 0.9;
/** Thresholds for a pool's end, widest first. Only the tightest one crossed is announced. */
export const POOL_ENDING_DAYS = [60, 30, 7] as const;
export const LICENSE_ENDING_DAYS = 7;

export type PoolEndingDays = (typeof POOL_ENDING_DAYS)[number];

export type Alert =
  | { kind: 'pool-capacity'; key: string; covers: string[]; pool: Pool; level: 'full' | 'nearly-full' }
  | {
      kind: 'pool-ending';
      key: string;
      covers: string[];
      pool: Pool;
      days: PoolEndingDays;
      /** Holders of the pool's active licenses: they lose access when it ends. */
      students: StudentRef[];
    }
  | { kind: 'license-ending'; key: string; covers: string[]; license: License; pool: Pool | undefined };

export const alertKeys = {
  poolFull: (poolId: string) => `pool-full:${poolId}`,
  poolNearlyFull: (poolId: string) => `pool-nearly-full:${poolId}`,
  poolEnding: (pool: Pick<Pool, 'id' | 'end'>, days: PoolEndingDays) =>
    `pool-ending:${pool.id}:${dayOf(pool.end)}:${days}`,
  licenseEnding: (license: Pick<License, 'id' | 'end'>) => `license-ending:${license.id}:${dayOf(license.end)}`,
};

export interface AlertInput {
  pools: readonly Pool[];
  /** Active licenses (the list endpoints' default). */
  licenses: readonly License[];
  now: Date;
  /** Whether a key was announced before. */
  sent: (key: string) => boolean;
}

function capacityAlert(pool: Pool): Alert | undefined {
  if (pool.licenses <= 0) return undefined;
  if (pool.availableLicenses <= 0) {
    // Once full was announced, dropping back to "nearly full" is not news.
    return {
      kind: 'pool-capacity',
      key: alertKeys.poolFull(pool.id),
      covers: [alertKeys.poolNearlyFull(pool.id)],
      pool,
      level: 'full',
    };
  }
  if (pool.assignedLicenses / pool.licenses >= NEARLY_FULL_RATIO) {
    return { kind: 'pool-capacity', key: alertKeys.poolNearlyFull(pool.id), covers: [], pool, level: 'nearly-full' };
  }
  return undefined;
}

function endingAlert(pool: Pool, holders: StudentRef[], daysLeft: number): Alert | undefined {
  const tightest = [...POOL_ENDING_DAYS].reverse().find((d) => daysLeft <= d);
  if (tightest === undefined) return undefined;
  // The wider thresholds are covered: a pool first seen 5 days before its end gets one alert, not three.
  const covers = POOL_ENDING_DAYS.filter((d) => d > tightest).map((d) => alertKeys.poolEnding(pool, d));
  return {
    kind: 'pool-ending',
    key: alertKeys.poolEnding(pool, tightest),
    covers,
    pool,
    days: tightest,
    students: holders,
  };
}

/** Code-unit order: ISO date-times and ids compare the same as with localeCompare, at a fraction of its cost. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What one pass over the active licenses keeps: each pool's holders (in the order read) and the
 * licenses ending within LICENSE_ENDING_DAYS. Filled a slice at a time (`scanLicenses`), so that the
 * service can give the event loop a turn between slices of a 50,000-license account.
 */
export interface LicenseScan {
  holders: Map<string, StudentRef[]>;
  ending: License[];
}

export const newLicenseScan = (): LicenseScan => ({ holders: new Map(), ending: [] });

/**
 * Adds licenses[from, to) to `scan`; touches nothing else. One Date.parse per license: the end
 * decides both whether it still runs and whether it ends soon.
 */
export function scanLicenses(
  scan: LicenseScan,
  licenses: readonly License[],
  from: number,
  to: number,
  now: Date,
): void {
  const t = now.getTime();
  // Before this moment is at most LICENSE_ENDING_DAYS calendar days away (`calendarDaysUntil`).
  const soon = endOfDaysAhead(now, LICENSE_ENDING_DAYS);
  const end = Math.min(to, licenses.length);
  for (let i = from; i < end; i += 1) {
    const l = licenses[i];
    if (!l?.active) continue;
    const at = Date.parse(l.end);
    // NaN fails both comparisons: a license without a readable end is neither running nor ending.
    if (!(at > t)) continue;
    // Appending in place: copying the list per license made a 40k-license pool quadratic.
    const list = scan.holders.get(l.poolId);
    if (list) list.push(l.student);
    else scan.holders.set(l.poolId, [l.student]);
    if (at < soon) scan.ending.push(l);
  }
}

/** The alerts from a finished scan: pools by end then id, then the licenses ending soon, soonest first. */
export function alertsFromScan(scan: LicenseScan, { pools, now, sent }: Omit<AlertInput, 'licenses'>): Alert[] {
  const t = now.getTime();
  const running = (iso: string) => {
    const at = Date.parse(iso);
    return !Number.isNaN(at) && at > t;
  };
  const poolsById = new Map(pools.map((p) => [p.id, p]));
  const found: Alert[] = [];
  const sorted = [...pools].sort((a, b) => compare(a.end, b.end) || compare(a.id, b.id));
  for (const pool of sorted) {
    if (!running(pool.end)) continue;
    const capacity = capacityAlert(pool);
    if (capacity) found.push(capacity);
    const ending = endingAlert(pool, scan.holders.get(pool.id) ?? [], calendarDaysUntil(pool.end, now) ?? 0);
    if (ending) found.push(ending);
  }
  // One day string per end value: the holders of a pool mostly share its end, so a 40,000-license
  // pool costs one dayOf, not 40,000.
  const days = new Map<string, string>();
  const dayOfEnd = (iso: string) => {
    let known = days.get(iso);
    if (known === undefined) {
      known = dayOf(iso);
      days.set(iso, known);
    }
    return known;
  };
  // A license that ends with its pool is told by the pool's own alert, with the other holders; those
  // are left out before the sort, which then orders only the licenses that get their own line.
  const endingLicenses = scan.ending
    .filter((license) => {
      const pool = poolsById.get(license.poolId);
      return !pool || dayOfEnd(pool.end) !== dayOfEnd(license.end);
    })
    .sort((a, b) => compare(a.end, b.end) || compare(a.id, b.id));
  for (const license of endingLicenses) {
    const pool = poolsById.get(license.poolId);
    found.push({ kind: 'license-ending', key: alertKeys.licenseEnding(license), covers: [], license, pool });
  }
  return found.filter((a) => !sent(a.key));
}

/** Every alert at once: the scan over all licenses, then the alerts (the service does it in slices). */
export function findAlerts({ licenses, ...rest }: AlertInput): Alert[] {
  const scan = newLicenseScan();
  scanLicenses(scan, licenses, 0, licenses.length, rest.now);
  return alertsFromScan(scan, rest);
}

/** A group of alerts that goes out as one message. */
export type AlertGroup =
  | { kind: 'pool-capacity'; alerts: Extract<Alert, { kind: 'pool-capacity' }>[] }
  | { kind: 'pool-ending'; alerts: [Extract<Alert, { kind: 'pool-ending' }>] }
  | { kind: 'license-ending'; alerts: Extract<Alert, { kind: 'license-ending' }>[] };
