/**
 * The weekly digest (docs/digest.md): per course, seats used and free, how the holders' progress is
 * spread, completions this week, who stalled or never started, pools ending soon, and when each pool
 * runs out at the last 30 days' pace. Data only (domain/digest.ts); blocks/digest.ts words it.
 *
 * Sources: the pools list of the licensing client (the seats now, at background priority) and the
 * progress store (holders, completions, each pool's seats per day), which the daily progress pass
 * fills; this reads it only.
 */

import { withinScope } from '../../kernel/domain/scope.js';
import { calendarDaysUntil, DAY_MS } from '../../kernel/domain/time.js';
import type { Pool } from '../../kernel/domain/types.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import {
  DEFAULT_PROGRESS_THRESHOLDS,
  type ListedStanding,
  type PoolStandingCounts,
  type PoolUsageDay,
  type ProgressChange,
  type ProgressStore,
  type ProgressThresholds,
  progressStanding,
} from '../../progress/index.js';
import {
  type CourseDigest,
  DIGEST_LISTED,
  type Digest,
  type DigestList,
  type DigestNames,
  emptySpread,
  type PoolDigest,
  type ProgressSpread,
  SPREAD_BUCKETS,
} from '../domain/digest.js';
import { FORECAST_WINDOW_DAYS, forecastPool, type UsageDay, usageLines } from '../domain/forecast.js';

export const ENDING_WITHIN_DAYS = 60;
const WEEK_MS = 7 * DAY_MS;

export interface DigestSources {
  licensing: Pick<LicensingClient, 'pools'>;
  store: Pick<ProgressStore, 'standingCounts' | 'listHolders' | 'completedBetween' | 'poolUsage'>;
}

export interface DigestInput {
  pools: readonly Pool[];
  /** The active holders counted per pool in the database (standings and spread). */
  counts: readonly PoolStandingCounts[];
  /** Completions in the week ending now. */
  completions: readonly ProgressChange[];
  /** Pool usage since the forecast window's first day (each pool's last day before it first). */
  usage: readonly PoolUsageDay[];
  now: Date;
  thresholds?: ProgressThresholds;
}

/**
 * Reads the sources and computes the digest for `now`, with the first DIGEST_LISTED holders of each
 * names list. Licensing and database failures are thrown. The holders are counted in the database
 * and only the listed ones are read, so the time does not grow with every holder read (docs/digest.md).
 */
export async function computeDigest(
  sources: DigestSources,
  now: Date,
  thresholds: ProgressThresholds = DEFAULT_PROGRESS_THRESHOLDS,
  priority: 'background' | 'interactive' = 'background',
  /** 'counts': no names read (a channel post carries counts only). */
  names: 'listed' | 'counts' = 'listed',
): Promise<Digest> {
  const pools = await sources.licensing.pools.list({ priority });
  const weekFrom = new Date(now.getTime() - WEEK_MS);
  const [allCounts, allCompletions, allUsage] = await Promise.all([
    sources.store.standingCounts(now, thresholds),
    sources.store.completedBetween(weekFrom, now),
    sources.store.poolUsage(new Date(now.getTime() - FORECAST_WINDOW_DAYS * DAY_MS)),
  ]);
  // A pool admin's digest (the pools above are already theirs): the records of their pools only.
  const scope = currentScope();
  const counts = withinScope(scope, allCounts, (c) => c.poolId);
  const completions = withinScope(scope, allCompletions, (c) => c.poolId);
  const usage = withinScope(scope, allUsage, (u) => u.poolId);
  const digest = assembleDigest({ pools, counts, completions, usage, now, thresholds });
  if (names === 'listed') digest.names = await readNames(sources.store, digest, counts, now, thresholds);
  return digest;
}

/** The lists' first holders, read by the database in the order they are shown; the totals from the counts. */
async function readNames(
  store: Pick<ProgressStore, 'listHolders'>,
  d: Digest,
  counts: readonly PoolStandingCounts[],
  now: Date,
  thresholds: ProgressThresholds,
): Promise<DigestNames> {
  const titles = new Map(d.courses.flatMap((c) => c.pools.map((p) => [p.poolId, c.title] as const)));
  const lists = await Promise.all(
    nameLists(d, counts, DIGEST_LISTED).map(async (spec): Promise<DigestList> => {
      const rows = await store.listHolders({
        standing: spec.standing,
        pools: spec.pools,
        limit: DIGEST_LISTED,
        now,
        thresholds,
      });
      return {
        total: spec.total,
        listed: rows.map((h) => ({
          licenseId: h.licenseId,
          poolId: h.poolId,
          courseTitle: titles.get(h.poolId) ?? h.courseId,
          name: h.studentName,
          email: h.studentEmail,
          progress: h.progress,
          standing: progressStanding(h, now, thresholds),
        })),
      };
    }),
  );
  const [stalled, notStarted, completedTransferable, endingSoon] = lists as [
    DigestList,
    DigestList,
    DigestList,
    DigestList,
  ];
  return { stalled, notStarted, completedTransferable, endingSoon };
}

export interface NameListSpec {
  standing: ListedStanding;
  /**
   * The pools to read the list's first holders from, each with its place (the rank of its course's
   * title, so the list reads course by course, A–Z): only the first places that hold at least `limit`
   * of them between them, as the counts say, so the database sorts a few rows, not every holder.
   */
  pools: Map<string, number>;
  /** How many holders the list has in all. */
  total: number;
}

/**
 * The four names lists of a digest (in DigestNames' order): whose holders, from which pools, how many.
 * Stalled and not started: every running pool; completed: the transferable ones; not completed: the
 * pools ending soon.
 */
export function nameLists(d: Digest, counts: readonly PoolStandingCounts[], limit: number): NameListSpec[] {
  const titles = [...new Set(d.courses.map((c) => c.title))].sort((a, b) => a.localeCompare(b));
  const rank = new Map(titles.map((t, i) => [t, i]));
  const placed = d.courses
    .flatMap((c) => c.pools.map((p) => ({ pool: p, place: rank.get(c.title) ?? 0 })))
    .sort((a, b) => a.place - b.place);
  const countOf = new Map(counts.map((c) => [c.poolId, c]));
  const ending = new Set(d.endingSoon.map((p) => p.poolId));
  const spec = (standing: ListedStanding, howMany: (pool: PoolDigest, c: PoolStandingCounts) => number) => {
    const pools = new Map<string, number>();
    let total = 0;
    let lastPlace = -1;
    for (const { pool, place } of placed) {
      const c = countOf.get(pool.poolId);
      const k = c ? howMany(pool, c) : 0;
      if (k <= 0) continue;
      // Enough holders in the places before this one: its holders come after every listed one.
      if (total >= limit && place !== lastPlace) {
        total += k;
        continue;
      }
      pools.set(pool.poolId, place);
      lastPlace = place;
      total += k;
    }
    return { standing, pools, total };
  };
  return [
    spec('stalled', (_, c) => c.stalled),
    spec('not-started', (_, c) => c.notStarted),
    spec('completed', (p, c) => (p.transferable ? c.completed : 0)),
    spec('open', (p, c) => (ending.has(p.poolId) ? c.holders - c.completed : 0)),
  ];
}

/** The digest's counts from what was read (pure; no names: computeDigest reads those after). */
export function assembleDigest(input: DigestInput): Digest {
  const { now } = input;
  const thresholds = input.thresholds ?? DEFAULT_PROGRESS_THRESHOLDS;
  const nowMs = now.getTime();
  const running = input.pools.filter((p) => {
    const end = Date.parse(p.end);
    return Number.isNaN(end) || end > nowMs;
  });
  const read = byPool(input);
  const courses = new Map<string, CourseDigest>();
  const poolDigests: PoolDigest[] = [];
  for (const pool of running) {
    const pd = poolDigest(pool, read, now);
    poolDigests.push(pd);
    addToCourse(courses, pool, pd, read);
  }
  const courseList = [...courses.values()].sort((a, b) => b.used - a.used || a.title.localeCompare(b.title));
  for (const c of courseList) c.pools.sort((a, b) => b.used - a.used || a.poolId.localeCompare(b.poolId));
  const endingSoon = poolDigests
    .filter((p) => p.endsInDays !== null && p.endsInDays <= ENDING_WITHIN_DAYS)
    .sort((a, b) => (a.endsInDays ?? 0) - (b.endsInDays ?? 0) || a.poolId.localeCompare(b.poolId));
  const chartPool = chartPoolOf(poolDigests);
  const digest: Digest = {
    at: now.toISOString(),
    weekFrom: new Date(nowMs - WEEK_MS).toISOString(),
    weekTo: now.toISOString(),
    thresholds: { ...thresholds },
    endingWithinDays: ENDING_WITHIN_DAYS,
    courses: courseList,
    totals: { pools: poolDigests.length, ...courseTotals(courseList) },
    endingSoon,
  };
  if (chartPool) digest.chartPoolId = chartPool.poolId;
  return digest;
}

/** What was read, by pool: usage days, standing counts, completions this week. */
interface ByPool {
  usage: Map<string, UsageDay[]>;
  counts: Map<string, PoolStandingCounts>;
  completed: Map<string, number>;
}

function byPool(input: DigestInput): ByPool {
  const usage = new Map<string, UsageDay[]>();
  for (const u of input.usage) {
    const list = usage.get(u.poolId) ?? [];
    if (list.length === 0) usage.set(u.poolId, list);
    list.push({ day: u.day, assigned: u.assigned, licenses: u.licenses });
  }
  const completed = new Map<string, number>();
  for (const c of input.completions) completed.set(c.poolId, (completed.get(c.poolId) ?? 0) + 1);
  return { usage, counts: new Map(input.counts.map((c) => [c.poolId, c])), completed };
}

/** One running pool's line of the digest: seats, forecast and its chart's lines, progress spread. */
function poolDigest(pool: Pool, read: ByPool, now: Date): PoolDigest {
  const used = Math.max(0, pool.assignedLicenses);
  const licenses = Math.max(0, pool.licenses);
  const forecastInput = {
    usage: read.usage.get(pool.id) ?? [],
    assigned: used,
    licenses,
    end: pool.end,
    start: pool.start,
    now,
  };
  const forecast = forecastPool(forecastInput);
  const counted = read.counts.get(pool.id);
  const spread: ProgressSpread = counted
    ? { zero: counted.zero, low: counted.low, high: counted.high, completed: counted.completed }
    : emptySpread();
  return {
    poolId: pool.id,
    courseId: pool.course.id,
    licenses,
    used,
    free: Math.max(0, pool.availableLicenses),
    transferable: pool.transferable,
    end: pool.end,
    endsInDays: calendarDaysUntil(pool.end, now) ?? null,
    forecast,
    lines: usageLines(forecastInput, forecast),
    spread,
  };
}

/** Adds a pool's line to its course's (made on its first pool). */
function addToCourse(courses: Map<string, CourseDigest>, pool: Pool, pd: PoolDigest, read: ByPool): void {
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
  const counted = read.counts.get(pool.id);
  course.pools.push(pd);
  course.licenses += pd.licenses;
  course.used += pd.used;
  course.free += pd.free;
  course.completedThisWeek += read.completed.get(pool.id) ?? 0;
  for (const k of SPREAD_BUCKETS) course.spread[k] += pd.spread[k];
  course.stalled += counted?.stalled ?? 0;
  course.notStarted += counted?.notStarted ?? 0;
  if (pool.transferable) course.completedTransferable += pd.spread.completed;
}

/** The pool the chart shows: the one that fills first, else the busiest. */
function chartPoolOf(poolDigests: readonly PoolDigest[]): PoolDigest | undefined {
  const daysToFull = (p: PoolDigest) => (p.forecast.kind === 'fills' ? p.forecast.daysToFull : 0);
  const filling = poolDigests
    .filter((p) => p.forecast.kind === 'fills')
    .sort((a, b) => daysToFull(a) - daysToFull(b) || a.poolId.localeCompare(b.poolId));
  const busiest = [...poolDigests].sort((a, b) => b.used - a.used || a.poolId.localeCompare(b.poolId));
  return filling[0] ?? busiest[0];
}

function courseTotals(courseList: readonly CourseDigest[]): Omit<Digest['totals'], 'pools'> {
  const sum = (f: (c: CourseDigest) => number) => courseList.reduce((n, c) => n + f(c), 0);
  return {
    licenses: sum((c) => c.licenses),
    used: sum((c) => c.used),
    free: sum((c) => c.free),
    holders: sum((c) => c.spread.zero + c.spread.low + c.spread.high + c.spread.completed),
    completedThisWeek: sum((c) => c.completedThisWeek),
    stalled: sum((c) => c.stalled),
    notStarted: sum((c) => c.notStarted),
    completedTransferable: sum((c) => c.completedTransferable),
  };
}
