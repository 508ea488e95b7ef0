/**
 * The weekly digest (docs/digest.md): per course, seats used and free, how the holders' progress is
 * spread, completions this week, who stalled or never started, pools ending soon, and when each pool
 * runs out at the last 30 days' pace. Data only (domain/digest.ts); blocks/digest.ts words it.
 *
 * Sources: the pools list of the licensing client (the seats now, at background priority) and the
 * progress store (holders, completions, each pool's seats per day), which the daily progress pass
 * fills; this reads it only.
 */
import {
  type CourseDigest,
  type Digest,
  type DigestHolder,
  type DigestNames,
  emptySpread,
  type PoolDigest,
  spreadBucket,
} from '../domain/digest.js';
import { FORECAST_WINDOW_DAYS, forecastPool, type UsageDay, usageLines } from '../domain/forecast.js';
import {
  DEFAULT_PROGRESS_THRESHOLDS,
  type LicenseProgress,
  type ProgressThresholds,
  progressStanding,
} from '../domain/progress.js';
import { DAY_MS } from '../domain/time.js';
import type { Pool } from '../domain/types.js';
import type { LicensingClient } from '../licensing/types.js';
import type { PoolUsageDay, ProgressChange, ProgressStore } from './progress-store.js';

export const ENDING_WITHIN_DAYS = 60;
const WEEK_MS = 7 * DAY_MS;

export interface DigestSources {
  licensing: Pick<LicensingClient, 'pools'>;
  store: Pick<ProgressStore, 'holders' | 'completedBetween' | 'poolUsage'>;
}

export interface DigestInput {
  pools: readonly Pool[];
  holders: readonly LicenseProgress[];
  /** Completions in the week ending now. */
  completions: readonly ProgressChange[];
  /** Pool usage since the forecast window's first day (each pool's last day before it first). */
  usage: readonly PoolUsageDay[];
  now: Date;
  thresholds?: ProgressThresholds;
}

/** Reads the sources and computes the digest for `now`. Licensing and database failures are thrown. */
export async function computeDigest(
  sources: DigestSources,
  now: Date,
  thresholds: ProgressThresholds = DEFAULT_PROGRESS_THRESHOLDS,
  priority: 'background' | 'interactive' = 'background',
): Promise<Digest> {
  const pools = await sources.licensing.pools.list({ priority });
  const weekFrom = new Date(now.getTime() - WEEK_MS);
  const [holders, completions, usage] = await Promise.all([
    sources.store.holders(),
    sources.store.completedBetween(weekFrom, now),
    sources.store.poolUsage(new Date(now.getTime() - FORECAST_WINDOW_DAYS * DAY_MS)),
  ]);
  return assembleDigest({ pools, holders, completions, usage, now, thresholds });
}

/** The digest from what was read (pure; the bench times it with the reads). */
export function assembleDigest(input: DigestInput): Digest {
  const { now } = input;
  const thresholds = input.thresholds ?? DEFAULT_PROGRESS_THRESHOLDS;
  const nowMs = now.getTime();
  const running = input.pools.filter((p) => {
    const end = Date.parse(p.end);
    return Number.isNaN(end) || end > nowMs;
  });
  const poolById = new Map(running.map((p) => [p.id, p]));
  const usageByPool = new Map<string, UsageDay[]>();
  for (const u of input.usage) {
    const list = usageByPool.get(u.poolId) ?? [];
    if (list.length === 0) usageByPool.set(u.poolId, list);
    list.push({ day: u.day, assigned: u.assigned, licenses: u.licenses });
  }
  const holdersByPool = new Map<string, LicenseProgress[]>();
  for (const h of input.holders) {
    if (!h.active || !poolById.has(h.poolId)) continue;
    const list = holdersByPool.get(h.poolId) ?? [];
    if (list.length === 0) holdersByPool.set(h.poolId, list);
    list.push(h);
  }
  const completedByPool = new Map<string, number>();
  for (const c of input.completions) completedByPool.set(c.poolId, (completedByPool.get(c.poolId) ?? 0) + 1);

  const names: DigestNames = { stalled: [], notStarted: [], completedTransferable: [], endingSoon: [] };
  const courses = new Map<string, CourseDigest>();
  const poolDigests: PoolDigest[] = [];
  for (const pool of running) {
    const used = Math.max(0, pool.assignedLicenses);
    const licenses = Math.max(0, pool.licenses);
    const forecastInput = {
      usage: usageByPool.get(pool.id) ?? [],
      assigned: used,
      licenses,
      end: pool.end,
      now,
    };
    const forecast = forecastPool(forecastInput);
    const end = Date.parse(pool.end);
    const endsInDays = Number.isNaN(end) ? null : Math.floor((end - nowMs) / DAY_MS);
    const spread = emptySpread();
    const pd: PoolDigest = {
      poolId: pool.id,
      courseId: pool.course.id,
      licenses,
      used,
      free: Math.max(0, pool.availableLicenses),
      transferable: pool.transferable,
      end: pool.end,
      endsInDays,
      forecast,
      lines: usageLines(forecastInput, forecast),
      spread,
    };
    poolDigests.push(pd);
    let course = courses.get(pool.course.id);
    if (!course) {
      course = {
        courseId: pool.course.id,
        title: pool.course.title,
        pools: [],
        licenses: 0,
        used: 0,
        free: 0,
        spread: emptySpread(),
        completedThisWeek: 0,
        stalled: 0,
        notStarted: 0,
        completedTransferable: 0,
      };
      courses.set(pool.course.id, course);
    }
    course.pools.push(pd);
    course.licenses += licenses;
    course.used += used;
    course.free += pd.free;
    course.completedThisWeek += completedByPool.get(pool.id) ?? 0;
    const endingSoon = endsInDays !== null && endsInDays <= ENDING_WITHIN_DAYS;
    for (const h of holdersByPool.get(pool.id) ?? []) {
      const bucket = spreadBucket(h);
      spread[bucket]++;
      course.spread[bucket]++;
      const standing = progressStanding(h, now, thresholds);
      const named = (): DigestHolder => ({
        licenseId: h.licenseId,
        poolId: h.poolId,
        courseTitle: pool.course.title,
        name: h.studentName,
        email: h.studentEmail,
        progress: h.progress,
        standing,
      });
      if (standing === 'stalled') {
        course.stalled++;
        names.stalled.push(named());
      } else if (standing === 'not-started') {
        course.notStarted++;
        names.notStarted.push(named());
      } else if (standing === 'completed' && pool.transferable) {
        course.completedTransferable++;
        names.completedTransferable.push(named());
      }
      if (endingSoon && standing !== 'completed') names.endingSoon.push(named());
    }
  }
  const courseList = [...courses.values()].sort((a, b) => b.used - a.used || a.title.localeCompare(b.title));
  for (const c of courseList) c.pools.sort((a, b) => b.used - a.used || a.poolId.localeCompare(b.poolId));
  const byName = (a: DigestHolder, b: DigestHolder) =>
    a.courseTitle.localeCompare(b.courseTitle) ||
    a.name.localeCompare(b.name) ||
    a.licenseId.localeCompare(b.licenseId);
  for (const list of Object.values(names)) list.sort(byName);
  const endingSoon = poolDigests
    .filter((p) => p.endsInDays !== null && p.endsInDays <= ENDING_WITHIN_DAYS)
    .sort((a, b) => (a.endsInDays ?? 0) - (b.endsInDays ?? 0) || a.poolId.localeCompare(b.poolId));
  const filling = poolDigests
    .filter((p) => p.forecast.kind === 'fills')
    .sort(
      (a, b) =>
        (a.forecast.kind === 'fills' ? a.forecast.daysToFull : 0) -
          (b.forecast.kind === 'fills' ? b.forecast.daysToFull : 0) || a.poolId.localeCompare(b.poolId),
    );
  const busiest = [...poolDigests].sort((a, b) => b.used - a.used || a.poolId.localeCompare(b.poolId));
  const chartPool = filling[0] ?? busiest[0];
  const sum = (f: (c: CourseDigest) => number) => courseList.reduce((n, c) => n + f(c), 0);
  const digest: Digest = {
    at: now.toISOString(),
    weekFrom: new Date(nowMs - WEEK_MS).toISOString(),
    weekTo: now.toISOString(),
    thresholds: { ...thresholds },
    endingWithinDays: ENDING_WITHIN_DAYS,
    courses: courseList,
    totals: {
      pools: poolDigests.length,
      licenses: sum((c) => c.licenses),
      used: sum((c) => c.used),
      free: sum((c) => c.free),
      holders: sum((c) => c.spread.zero + c.spread.low + c.spread.high + c.spread.completed),
      completedThisWeek: sum((c) => c.completedThisWeek),
      stalled: sum((c) => c.stalled),
      notStarted: sum((c) => c.notStarted),
      completedTransferable: sum((c) => c.completedTransferable),
    },
    endingSoon,
    names,
  };
  if (chartPool) digest.chartPoolId = chartPool.poolId;
  return digest;
}
