/**
 * The App Home dashboard's data: pools, licenses ending within 14 days, recent changes from
 * the audit. One snapshot serves every viewer (what differs by role is only the buttons), refreshed at
 * background priority and never beyond a share of the rate budget:
 *
 * - a per-window counter: refreshes may spend at most floor(limit × HOME_BUDGET_SHARE) requests in
 *   any rolling window (at least 1); a refresh that would exceed it is skipped and the home renders
 *   from the last snapshot with its "as of" time;
 * - a refresh is also skipped while background work would wait long for a slot (a bulk job running):
 *   limiter.estimateWaitMs('background') above half a window;
 * - the licenses scan costs one request per page of active licenses, plus one for the short last page
 *   (the pools' assigned counts and the client's page size tell how many before reading); when that alone exceeds the allowance, the dashboard shows the pools only
 *   and says why, rather than spend the budget of the people typing commands.
 * Concurrent refreshes share one; a snapshot younger than `minAgeMs` is not refreshed again.
 */

import { maskEmail } from '../../kernel/domain/email.js';
import { endOfDaysAhead } from '../../kernel/domain/time.js';
import type { License } from '../../kernel/domain/types.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditEntry } from '../../kernel/services/audit.js';
import { unscoped } from '../../kernel/services/request-scope.js';
import type { SharedStore } from '../../kernel/services/shared-store.js';
import { inSlices } from '../../kernel/services/turns.js';
import type { DashboardData } from '../domain/dashboard.js';

export type { DashboardData };

export const ENDING_WITHIN_DAYS = 14;
export const RECENT_CHANGES = 8;
const BACKGROUND = { priority: 'background' } as const;

export type RefreshResult =
  | { refreshed: true; data: DashboardData }
  | { refreshed: false; reason: 'budget' | 'busy' | 'fresh'; data: DashboardData | undefined };

export interface Dashboard {
  /** The last snapshot, if any: rendered at once when the Home tab opens. */
  current(): DashboardData | undefined;
  refresh(opts?: { force?: boolean }): Promise<RefreshResult>;
  /** Requests spent in the current window, and the allowance (for tests and diagnostics). */
  budget(): { spent: number; allowance: number };
}

export interface DashboardOptions {
  licensing: LicensingClient;
  audit?: { recent(limit: number): Promise<AuditEntry[]> } | undefined;
  now: () => Date;
  logger: Logger;
  /** The licensing budget: `limit` requests per `windowMs`. */
  limit: number;
  windowMs: number;
  /** HOME_BUDGET_SHARE. */
  share: number;
  /** Default windowMs / 6 (10 s for a minute). */
  minAgeMs?: number;
  /** Skip when background work would wait longer; default windowMs / 2. */
  maxWaitMs?: number;
  /** With REDIS_URL: the replicas share the last snapshot, so one refresh serves the Home of all. */
  shared?: SharedStore | undefined;
}

const SNAPSHOT_KEY = 'home:snapshot';

/** The snapshot as the replicas share it: e-mails masked (Home shows names only), the time as ISO. */
function encodeSnapshot(data: DashboardData): string {
  const mask = (email: string) => (email ? maskEmail(email) : email);
  return JSON.stringify({
    ...data,
    ending: data.ending?.map((l) => ({ ...l, student: { ...l.student, email: mask(l.student.email) } })),
    recent: data.recent.map((e) => (e.studentEmail ? { ...e, studentEmail: mask(e.studentEmail) } : e)),
  });
}

function decodeSnapshot(raw: string | undefined): DashboardData | undefined {
  if (raw === undefined) return undefined;
  const v = JSON.parse(raw) as Omit<DashboardData, 'asOf'> & { asOf: string };
  const asOf = new Date(v.asOf);
  return Array.isArray(v.pools) && !Number.isNaN(asOf.getTime()) ? { ...v, asOf } : undefined;
}

/** The requests refreshes spent in the rolling window, against their allowance. */
function budgetWindow(opts: DashboardOptions, clock: () => number) {
  const allowance = Math.max(1, Math.floor(opts.limit * opts.share));
  const spentAt: number[] = [];
  const spent = () => {
    const since = clock() - opts.windowMs;
    while (spentAt.length > 0 && (spentAt[0] ?? 0) <= since) spentAt.shift();
    return spentAt.length;
  };
  return {
    allowance,
    spent,
    left: () => allowance - spent(),
    spend(n: number) {
      for (let i = 0; i < n; i++) spentAt.push(clock());
    },
  };
}

/** Active licenses ending within ENDING_WITHIN_DAYS of `t`, soonest first: one scan of every active license. */
async function scanEnding(licensing: LicensingClient, t: number): Promise<License[]> {
  // Before `soon` is at most ENDING_WITHIN_DAYS calendar days away (`calendarDaysUntil`).
  const soon = endOfDaysAhead(new Date(t), ENDING_WITHIN_DAYS);
  const licenses = await licensing.licenses.all({}, BACKGROUND);
  const found: License[] = [];
  // A slice per turn of the event loop: a big budget share can let the scan read 50,000 licenses.
  await inSlices(licenses.length, (from, to) => {
    for (let i = from; i < to; i += 1) {
      const l = licenses[i] as License;
      const end = Date.parse(l.end);
      if (l.active && end > t && end < soon) found.push(l);
    }
  });
  return found.sort((a, b) => a.end.localeCompare(b.end) || a.id.localeCompare(b.id));
}

/** The recent audit entries; none when the audit cannot be read (logged). */
async function recentChanges(opts: DashboardOptions): Promise<AuditEntry[]> {
  try {
    return (await opts.audit?.recent(RECENT_CHANGES)) ?? [];
  } catch (error) {
    opts.logger.warn('dashboard: could not read the audit log', { error: String(error) });
    return [];
  }
}

export function createDashboard(opts: DashboardOptions): Dashboard {
  const minAgeMs = opts.minAgeMs ?? opts.windowMs / 6;
  const maxWaitMs = opts.maxWaitMs ?? opts.windowMs / 2;
  const clock = () => opts.now().getTime();
  const budget = budgetWindow(opts, clock);
  let snapshot: DashboardData | undefined;
  let inflight: Promise<RefreshResult> | undefined;

  async function load(): Promise<RefreshResult> {
    // pools.list may come from the client's cache and cost nothing; it is counted as one anyway.
    budget.spend(1);
    const pools = await opts.licensing.pools.list(BACKGROUND);
    const active = pools.reduce((n, p) => n + Math.max(0, p.assignedLicenses), 0);
    // The walk stops on a short page: an exact multiple of the page size costs one more (empty) page.
    const pages = Math.floor(active / opts.licensing.pageSize()) + 1;
    let ending: License[] | undefined;
    if (pages <= budget.left()) {
      budget.spend(pages);
      ending = await scanEnding(opts.licensing, clock());
    } else {
      // The window is spent for now: keep the previous scan (the view says "as of") rather than nothing.
      ending = snapshot?.ending;
      opts.logger.info('dashboard: license scan over the budget share, pools only', {
        pages,
        allowance: budget.allowance,
      });
    }
    snapshot = { pools, ending, recent: await recentChanges(opts), asOf: opts.now() };
    await opts.shared?.set(SNAPSHOT_KEY, encodeSnapshot(snapshot)).catch((error: unknown) => {
      opts.logger.warn('dashboard: could not share the snapshot', { error: String(error) });
    });
    return { refreshed: true, data: snapshot };
  }

  /** Takes another replica's snapshot when it is newer than ours (then "fresh" may spare a refresh). */
  async function adoptShared(): Promise<void> {
    try {
      const theirs = decodeSnapshot(await opts.shared?.get(SNAPSHOT_KEY));
      if (theirs && (!snapshot || theirs.asOf > snapshot.asOf)) snapshot = theirs;
    } catch (error) {
      opts.logger.warn('dashboard: could not read the shared snapshot', { error: String(error) });
    }
  }

  function refresh({ force = false }: { force?: boolean }): Promise<RefreshResult> {
    if (inflight) return inflight;
    const skip = (reason: 'budget' | 'busy' | 'fresh') =>
      Promise.resolve<RefreshResult>({ refreshed: false, reason, data: snapshot });
    if (snapshot && !force && clock() - snapshot.asOf.getTime() < minAgeMs) return skip('fresh');
    if (snapshot && budget.spent() + 1 > budget.allowance) return skip('budget');
    // Without any snapshot there is nothing to show instead, so the first refresh waits its turn.
    if (snapshot && opts.licensing.limiter.estimateWaitMs('background') > maxWaitMs) return skip('busy');
    inflight = load().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  return {
    current: () => snapshot,
    budget: () => ({ spent: budget.spent(), allowance: budget.allowance }),
    // One snapshot serves everyone: read over every pool, whoever's Home asked (each Home narrows it).
    refresh: (args = {}) =>
      unscoped(() => {
        if (!opts.shared || inflight) return refresh(args);
        return adoptShared().then(() => refresh(args));
      }),
  };
}
