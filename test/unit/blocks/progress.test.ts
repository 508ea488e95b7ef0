/**
 * Progress in words: where a holder stands and since when ("at least" when License Desk only knows
 * since it started watching), and App Home with every pool's counts and the seats to give back,
 * within a Home tab's limits, the Return buttons for admins only.
 */
import { describe, expect, it } from 'vitest';
import { buildDashboardHomeView } from '../../../src/home/blocks/home.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import { progressLine } from '../../../src/progress/blocks/progress-text.js';
import type { HomeProgress } from '../../../src/progress/domain/progress-views.js';
import { allText, inDays, makeLicenseProgress, makePool, NOW } from '../../support/fixtures.js';

const holder = makeLicenseProgress;

describe('progress in words', () => {
  it('says completed with its day, not started with the days since the start, stalled since the last change', () => {
    expect(progressLine(holder({ progress: 100, completed: '2026-02-20T10:00:00+00:00' }), NOW)).toBe(
      ':white_check_mark: Completed Feb 20, 2026',
    );
    expect(progressLine(holder({ progress: 0, start: inDays(-20) }), NOW)).toBe(':zzz: Not started after 20 days');
    expect(progressLine(holder({ progress: 0, start: inDays(-3) }), NOW)).toBe('0 % · licensed 3 days ago');
    // A change was seen 40 days ago: stalled since then.
    expect(progressLine(holder({ changedAt: inDays(-40) }), NOW)).toBe(
      ':hourglass: 40 % · no progress since Jan 20, 2026',
    );
    // No change ever seen: only "at least" since License Desk started watching.
    expect(progressLine(holder({ changedAt: inDays(-60), firstSeenAt: inDays(-60) }), NOW)).toBe(
      ':hourglass: 40 % · no progress since at least Dec 31, 2025',
    );
    expect(progressLine(holder({ changedAt: inDays(-5) }), NOW)).toBe('40 % · last progress Feb 24, 2026');
    // The thresholds are settings.
    expect(progressLine(holder({ changedAt: inDays(-5) }), NOW, { notStartedDays: 14, stalledDays: 3 })).toMatch(
      /^:hourglass: 40 % · no progress since Feb 24, 2026/,
    );
  });

  it('App Home: counts on every pool card, seats to give back with Return buttons for admins only, within the limits', () => {
    const pools = Array.from({ length: 40 }, (_, i) => makePool({ id: `p${i}`, end: inDays(30 + i) }));
    const progress: HomeProgress = {
      standings: pools.map((p, i) => ({ poolId: p.id, holders: 20, completed: i % 4, notStarted: 3, stalled: 2 })),
      returnable: Array.from({ length: 5 }, (_, i) => ({
        licenseId: `L${i}`,
        poolId: `p${i}`,
        studentName: `Holder ${i}`,
        studentEmail: `holder${i}@example.com`,
        completedAt: inDays(-i),
      })),
      returnableTotal: 12,
    };
    const home = (canChange: boolean) =>
      buildDashboardHomeView({
        canChange,
        data: { pools, ending: [], recent: [], asOf: NOW },
        now: NOW,
        sandbox: false,
        progress,
      });
    const admin = home(true);
    expect(checkBlockKitLimits(admin, 'view')).toEqual([]);
    const text = allText(admin);
    expect(text).toContain('3 not started · 2 stalled · 1 completed');
    expect(text).toContain('seats to give back* · 12');
    expect(text).toContain('7 more finished courses');
    expect(text).not.toContain('holder0@example.com');
    const buttons = JSON.stringify(admin.blocks).match(/home_return_seat/g) ?? [];
    expect(buttons).toHaveLength(5);
    const viewer = home(false);
    expect(JSON.stringify(viewer.blocks)).not.toContain('home_return_seat');
    expect(allText(viewer)).toContain('3 not started · 2 stalled');
  });
});
