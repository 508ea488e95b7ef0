/**
 * What the Slackbot read tools answer (docs/slackbot.md), for a caller whose role and scope the Slack
 * layer checked: from License Desk's own records first (the progress records, the requests and the
 * waitlist, the audit table), and the licensing service's pools list (cached, paced as every
 * interactive read). Typed data out; the blocks layer words it.
 */
import type { Kysely } from 'kysely';
import { FORECAST_WINDOW_DAYS, type Forecast, forecastPool } from '../../digest/index.js';
import { readHistoryPage } from '../../history/index.js';
import type { Database } from '../../kernel/db/schema.js';
import type { HistoryPage, HistorySubject } from '../../kernel/domain/history.js';
import { inScope, type Scope, withinScope } from '../../kernel/domain/scope.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import type { Pool } from '../../kernel/domain/types.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { type MineOutcome, myLicenses, recordedLicenses } from '../../learners/index.js';
import {
  type ListedStanding,
  type PoolStandingCounts,
  type ProgressStore,
  type ProgressThresholds,
  progressStanding,
} from '../../progress/index.js';
import type { CourseRequest } from '../../requests/index.js';
import type {
  HolderRow,
  PersonAnswer,
  PoolDetail,
  PoolForecast,
  PoolFound,
  PoolRow,
  StandingCounts,
  WaitingRow,
} from '../domain/answers.js';

export interface ReadSources {
  licensing: LicensingClient;
  /** The progress records (absent without records). */
  progress?: ProgressStore | undefined;
  /** The audit table, for the history search (absent without records). */
  db?: Kysely<Database> | undefined;
  /** The waitlist's lines, oldest first with places (absent when it is off). */
  waitlist?:
    | {
        entries(
          poolId?: string,
        ): Promise<{ requestId: string; poolId: string; requester: string; since: string; place: number }[]>;
      }
    | undefined;
  /** The course requests waiting for a decision (absent when requests are off). */
  openRequests?: (() => Promise<CourseRequest[]>) | undefined;
  now: () => Date;
  thresholds: ProgressThresholds;
}

const rowOf = (p: Pool): PoolRow => ({
  poolId: p.id,
  course: p.course.title,
  licenses: p.licenses,
  assigned: p.assignedLicenses,
  free: p.availableLicenses,
  start: p.start,
  end: p.end,
  transferable: p.transferable,
});

/** The pools the scope covers, by course then end. */
export async function poolsInScope(src: ReadSources, scope: Scope): Promise<Pool[]> {
  const pools = await src.licensing.pools.list(INTERACTIVE);
  return withinScope(scope, pools, (p) => p.id).sort(
    (a, b) => a.course.title.localeCompare(b.course.title) || a.end.localeCompare(b.end) || a.id.localeCompare(b.id),
  );
}

export async function poolsOverview(src: ReadSources, scope: Scope): Promise<{ pools: PoolRow[] }> {
  return { pools: (await poolsInScope(src, scope)).map(rowOf) };
}

/** One pool the scope covers (else not found: a pool outside it is not shown to exist). */
async function onePool(src: ReadSources, scope: Scope, poolId: string): Promise<Pool | undefined> {
  if (!inScope(scope, poolId)) return undefined;
  return (await src.licensing.pools.list(INTERACTIVE)).find((p) => p.id === poolId);
}

const countsOf = (c: PoolStandingCounts | undefined): StandingCounts => ({
  holders: c?.holders ?? 0,
  completed: c?.completed ?? 0,
  notStarted: c?.notStarted ?? 0,
  stalled: c?.stalled ?? 0,
});

export async function poolDetail(src: ReadSources, scope: Scope, poolId: string): Promise<PoolFound<PoolDetail>> {
  const pool = await onePool(src, scope, poolId);
  if (!pool) return { kind: 'not-found', poolId };
  if (!src.progress) return { kind: 'found', value: rowOf(pool) };
  const now = src.now();
  const counts = await src.progress.standingCounts(now, src.thresholds);
  const [forecast] = await forecastsOf(src, [pool], now);
  return {
    kind: 'found',
    value: {
      ...rowOf(pool),
      standing: countsOf(counts.find((c) => c.poolId === pool.id)),
      ...(forecast ? { forecast: forecast.forecast } : {}),
    },
  };
}

/** The digest's forecast for each pool, from the seats per day the progress pass recorded. */
async function forecastsOf(src: ReadSources, pools: readonly Pool[], now: Date): Promise<PoolForecast[]> {
  if (!src.progress || pools.length === 0) return [];
  const since = new Date(now.getTime() - FORECAST_WINDOW_DAYS * DAY_MS);
  const usage = await src.progress.poolUsage(since, pools.length === 1 ? pools[0]?.id : undefined);
  return pools.map((p) => ({
    poolId: p.id,
    course: p.course.title,
    free: p.availableLicenses,
    end: p.end,
    forecast: forecastPool({
      usage: usage.filter((u) => u.poolId === p.id),
      assigned: p.assignedLicenses,
      licenses: p.licenses,
      end: p.end,
      start: p.start,
      now,
    }),
  }));
}

/** When each pool (or the one asked for) runs out, soonest first. */
export async function runOut(src: ReadSources, scope: Scope, poolId?: string): Promise<PoolFound<PoolForecast[]>> {
  const pools = poolId ? [await onePool(src, scope, poolId)] : await poolsInScope(src, scope);
  const found = pools.filter((p): p is Pool => p !== undefined);
  if (poolId && found.length === 0) return { kind: 'not-found', poolId };
  const order = (f: Forecast) => (f.kind === 'full' ? 0 : 'daysToFull' in f ? f.daysToFull : Number.MAX_SAFE_INTEGER);
  const all = await forecastsOf(src, found, src.now());
  return { kind: 'found', value: all.sort((a, b) => order(a.forecast) - order(b.forecast)) };
}

export const HOLDERS_LISTED = 25;

/**
 * Holders of a pool (or of every pool of a course) by where they stand, from the progress records:
 * at most HOLDERS_LISTED, and how many in all.
 */
export async function holdersByStanding(
  src: ReadSources,
  scope: Scope,
  where: { poolId?: string | undefined; course?: string | undefined },
  standing: ListedStanding,
): Promise<{ kind: 'listed'; total: number; holders: HolderRow[] } | { kind: 'no-pool' } | { kind: 'no-records' }> {
  if (!src.progress) return { kind: 'no-records' };
  const words = where.course?.trim().toLowerCase();
  const pools = (await poolsInScope(src, scope)).filter((p) =>
    where.poolId ? p.id === where.poolId : words ? p.course.title.toLowerCase().includes(words) : true,
  );
  if (pools.length === 0) return { kind: 'no-pool' };
  const now = src.now();
  const titles = new Map(pools.map((p) => [p.id, p.course.title]));
  const counts = await src.progress.standingCounts(now, src.thresholds);
  const key = { completed: 'completed', 'not-started': 'notStarted', stalled: 'stalled', open: 'holders' } as const;
  const total = counts
    .filter((c) => titles.has(c.poolId))
    .reduce((n, c) => n + (standing === 'open' ? c.holders - c.completed : c[key[standing]]), 0);
  const rows = await src.progress.listHolders({
    standing,
    pools: new Map(pools.map((p, i) => [p.id, i])),
    limit: HOLDERS_LISTED,
    now,
    thresholds: src.thresholds,
  });
  return {
    kind: 'listed',
    total,
    holders: rows.map((h) => ({
      licenseId: h.licenseId,
      poolId: h.poolId,
      course: titles.get(h.poolId) ?? h.courseId,
      name: h.studentName,
      email: h.studentEmail,
      progress: h.progress,
      standing: progressStanding(h, now, src.thresholds),
      end: h.end,
    })),
  };
}

/** A person's active licenses by e-mail: the progress records first, else the licensing service (paced). */
export async function licensesByEmail(src: ReadSources, scope: Scope, email: string): Promise<PersonAnswer> {
  const pools = await src.licensing.pools.list(INTERACTIVE);
  const titles = new Map(pools.map((p) => [p.id, p.course.title]));
  let outcome: MineOutcome = { kind: 'none-recorded', email };
  if (src.progress) outcome = await recordedLicenses(src.progress, email, titles);
  const from = outcome.kind === 'listed' ? 'records' : 'licensing';
  if (outcome.kind !== 'listed') outcome = await myLicenses(src.licensing, src.progress, email);
  if (outcome.kind === 'unread') return { kind: 'none', sentence: outcome.sentence };
  if (outcome.kind !== 'listed') return { kind: 'none' };
  const licenses = withinScope(scope, outcome.licenses, (l) => l.poolId).map((l) => ({
    licenseId: l.licenseId,
    poolId: l.poolId,
    course: l.courseTitle,
    email,
    progress: l.progress,
    completed: l.completed,
    end: l.end,
  }));
  return { kind: 'listed', licenses, from };
}

/** Active licenses whose holder's name contains `name`, from the progress records (at most HOLDERS_LISTED). */
export async function licensesByName(src: ReadSources, scope: Scope, name: string): Promise<PersonAnswer> {
  if (!src.progress) return { kind: 'none' };
  const pools = await src.licensing.pools.list(INTERACTIVE);
  const titles = new Map(pools.map((p) => [p.id, p.course.title]));
  const held = await src.progress.holders({ nameContains: name.trim(), limit: 200 });
  const licenses = withinScope(scope, held, (h) => h.poolId)
    .slice(0, HOLDERS_LISTED)
    .map((h) => ({
      licenseId: h.licenseId,
      poolId: h.poolId,
      course: titles.get(h.poolId) ?? h.courseId,
      name: h.studentName,
      email: h.studentEmail,
      progress: h.progress,
      completed: h.completed,
      end: h.end,
    }));
  return { kind: 'listed', licenses, from: 'records' };
}

/** The waitlist's lines and the course requests waiting for a decision, in the scope. */
export async function waitingPeople(
  src: ReadSources,
  scope: Scope,
  poolId?: string,
): Promise<{ waitlist: WaitingRow[]; openRequests: WaitingRow[]; waitlistOn: boolean; requestsOn: boolean }> {
  const inPool = (id: string) => inScope(scope, id) && (poolId === undefined || id === poolId);
  const line = src.waitlist ? await src.waitlist.entries(poolId) : [];
  const open = src.openRequests ? await src.openRequests() : [];
  return {
    waitlistOn: src.waitlist !== undefined,
    requestsOn: src.openRequests !== undefined,
    waitlist: line
      .filter((e) => inPool(e.poolId))
      .map((e) => ({
        requestId: e.requestId,
        poolId: e.poolId,
        requester: e.requester,
        since: e.since,
        place: e.place,
      })),
    openRequests: open
      .filter((r) => inPool(r.poolId))
      .map((r) => ({
        requestId: r.id,
        poolId: r.poolId,
        requester: r.requester,
        since: r.createdAt,
        course: r.courseTitle,
      })),
  };
}

/** The newest audit entries about a subject (the history search), within `days` when given. */
export async function historyOf(
  src: ReadSources,
  scope: Scope,
  subject: HistorySubject,
  days: number | undefined,
): Promise<HistoryPage | undefined> {
  if (!src.db) return undefined;
  const since = days === undefined ? undefined : new Date(src.now().getTime() - days * DAY_MS).toISOString();
  const page = await readHistoryPage(src.db, {
    subject,
    page: 1,
    ...(days !== undefined ? { days } : {}),
    ...(since ? { since } : {}),
  });
  // A role narrowed to some pools sees the entries about those pools only.
  return scope.all ? page : { ...page, items: page.items.filter((i) => inScope(scope, i.entry.poolId)) };
}
