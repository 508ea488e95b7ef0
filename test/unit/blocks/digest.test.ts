import { describe, expect, it } from 'vitest';
import {
  buildDigestHoldersMessage,
  buildDigestMessage,
  forecastWords,
  withoutCharts,
} from '../../../src/digest/blocks/digest.js';
import { DIGEST_LISTED, type Digest, type DigestList, spreadBucket } from '../../../src/digest/domain/digest.js';
import { assembleDigest } from '../../../src/digest/services/digest.js';
import { checkBlockKitLimits, checkModalLimits } from '../../../src/kernel/blocks/limits.js';
import type { Pool } from '../../../src/kernel/domain/types.js';
import type { PoolStandingCounts } from '../../../src/progress/db/store.js';
import { type LicenseProgress, progressStanding } from '../../../src/progress/domain/progress.js';
import { makeLicenseProgress } from '../../support/fixtures.js';

const now = new Date('2026-11-30T09:00:00Z');
const DAY = 86_400_000;
const iso = (offsetDays: number) => new Date(now.getTime() + offsetDays * DAY).toISOString();
const day = (offsetDays: number) => iso(offsetDays).slice(0, 10);

function pool(
  id: string,
  course: number,
  licenses: number,
  assigned: number,
  endDays: number,
  transferable = false,
): Pool {
  return {
    id,
    start: iso(-200),
    end: iso(endDays),
    transferable,
    licenses,
    assignedLicenses: assigned,
    availableLicenses: licenses - assigned,
    course: { id: String(course), title: `Course ${course}` },
  };
}

function holder(i: number, poolId: string, progress: number, o: Partial<LicenseProgress> = {}): LicenseProgress {
  const who = { studentId: `S${i}`, studentEmail: `student${i}@school.example`, studentName: `Student ${i}` };
  const when = { start: iso(-100), end: iso(100), firstSeenAt: iso(-100), changedAt: iso(-2), seenAt: iso(0) };
  const completed = progress >= 100 ? iso(-3) : null;
  return makeLicenseProgress({ licenseId: `L${i}`, poolId, courseId: '1', ...who, progress, completed, ...when, ...o });
}

function sample(courses = 2, poolsPerCourse = 2, holdersPerPool = 6) {
  const pools: Pool[] = [];
  const holders: LicenseProgress[] = [];
  const usage = [];
  let h = 0;
  for (let c = 1; c <= courses; c++) {
    for (let p = 0; p < poolsPerCourse; p++) {
      const id = String(2000 + c * 10 + p);
      pools.push(pool(id, c, 50, 20 + p, p === 0 ? 30 : 300, p === 1));
      usage.push({
        poolId: id,
        day: day(-40),
        licenses: 50,
        assigned: 5 + p,
        available: 45 - p,
        transferable: p === 1,
        end: iso(300),
      });
      for (let k = 0; k < holdersPerPool; k++) {
        const progress = [0, 0, 20, 70, 100, 40][k % 6] ?? 0;
        // k 0: 0 % since long ago (not started); k 5: 40 % unchanged for 60 days (stalled)
        holders.push(holder(++h, id, progress, k % 6 === 5 ? { changedAt: iso(-60), firstSeenAt: iso(-90) } : {}));
      }
    }
  }
  const completions = holders
    .filter((x) => x.progress >= 100)
    .map((x) => ({
      licenseId: x.licenseId,
      poolId: x.poolId,
      studentEmail: x.studentEmail,
      progress: 100,
      completed: x.completed,
      at: iso(-3),
    }));
  return withNames(assembleDigest({ pools, counts: countsOf(holders), completions, usage, now }), holders);
}

/** What the database counts per pool (the store's own tests check it against these rules on both engines). */
function countsOf(holders: readonly LicenseProgress[]): PoolStandingCounts[] {
  const byPool = new Map<string, PoolStandingCounts>();
  for (const h of holders) {
    const c = byPool.get(h.poolId) ?? {
      poolId: h.poolId,
      holders: 0,
      completed: 0,
      notStarted: 0,
      stalled: 0,
      zero: 0,
      low: 0,
      high: 0,
    };
    byPool.set(h.poolId, c);
    c.holders++;
    c[spreadBucket(h)]++;
    const standing = progressStanding(h, now);
    if (standing === 'stalled') c.stalled++;
    if (standing === 'not-started') c.notStarted++;
  }
  return [...byPool.values()];
}

/** The names lists as computeDigest reads them: the first DIGEST_LISTED by course title, name, license id. */
function withNames(d: Digest, holders: readonly LicenseProgress[]): Digest {
  const pools = d.courses.flatMap((c) => c.pools.map((p) => ({ ...p, title: c.title })));
  const poolOf = new Map(pools.map((p) => [p.poolId, p]));
  const ending = new Set(d.endingSoon.map((p) => p.poolId));
  const list = (keep: (h: LicenseProgress, transferable: boolean, ending: boolean) => boolean): DigestList => {
    const rows = holders
      .filter((h) => {
        const p = poolOf.get(h.poolId);
        return p !== undefined && keep(h, p.transferable, ending.has(p.poolId));
      })
      .map((h) => ({
        licenseId: h.licenseId,
        poolId: h.poolId,
        courseTitle: poolOf.get(h.poolId)?.title ?? '',
        name: h.studentName,
        email: h.studentEmail,
        progress: h.progress,
        standing: progressStanding(h, now),
      }))
      .sort((a, b) => a.courseTitle.localeCompare(b.courseTitle) || a.name.localeCompare(b.name));
    return { total: rows.length, listed: rows.slice(0, DIGEST_LISTED) };
  };
  const standing = (h: LicenseProgress) => progressStanding(h, now);
  return {
    ...d,
    names: {
      stalled: list((h) => standing(h) === 'stalled'),
      notStarted: list((h) => standing(h) === 'not-started'),
      completedTransferable: list((h, transferable) => transferable && standing(h) === 'completed'),
      endingSoon: list((h, _, endingSoon) => endingSoon && standing(h) !== 'completed'),
    },
  };
}

const charts = (m: { blocks: { type: string }[] }) => m.blocks.filter((b) => b.type === 'data_visualization');

describe('the digest blocks', () => {
  it('a channel post: two charts, within every limit, no e-mail and no name, a Show holders button', () => {
    const d = sample();
    const m = buildDigestMessage(d, { names: false, showHolders: true, scheduled: true });
    expect(checkBlockKitLimits(m)).toEqual([]);
    expect(charts(m)).toHaveLength(2);
    const json = JSON.stringify(m);
    expect(json).not.toMatch(/@school\.example/);
    expect(json).not.toMatch(/Student \d/);
    expect(json).toContain('digest_show_holders');
  });

  it('the fallback without charts says the numbers the charts show', () => {
    const d = sample();
    const m = buildDigestMessage(d, { names: false, showHolders: false });
    const words = JSON.stringify(withoutCharts(m).blocks);
    const [seats, spread] = charts(m) as unknown as {
      chart: { series: { name: string; data: { label: string; value: number }[] }[] };
    }[];
    // The seats chart's "used" point of today is today's seats in use, said in words.
    const chartPool = d.courses.flatMap((c) => c.pools).find((p) => p.poolId === d.chartPoolId);
    const used = seats?.chart.series[0]?.data.find((p) => p.label === 'Nov 30')?.value;
    expect(used).toBe(chartPool?.used);
    expect(words).toContain(`${chartPool?.used} of ${chartPool?.licenses} seats used`);
    // Each course's spread, as the bar chart shows it, is in the words.
    for (const s of spread?.chart.series ?? []) {
      const [zero, low, high, completed] = s.data.map((p) => p.value);
      expect(words).toContain(
        `${s.name}: ${zero} at 0 %, ${low} at 1–49 %, ${high} at 50–99 %, ${completed} completed`,
      );
    }
    expect(m.text).toContain(`${d.totals.used} of ${d.totals.licenses} seats used`);
    expect(checkBlockKitLimits(withoutCharts(m))).toEqual([]);
  });

  it('counts what the seeded holders say: stalled, not started, completed in transferable pools', () => {
    const d = sample(1, 2, 6);
    expect(d.totals).toMatchObject({
      pools: 2,
      used: 41,
      licenses: 100,
      free: 59,
      holders: 12,
      stalled: 2,
      notStarted: 4,
    });
    // Completed holders in the transferable pool (the second).
    expect(d.totals.completedTransferable).toBe(1);
    expect(d.totals.completedThisWeek).toBe(2);
  });

  it('a private answer names the holders, and stays within the limits with many courses and holders', () => {
    const d = sample(30, 3, 40);
    const m = buildDigestMessage(d, { names: true, showHolders: false });
    expect(checkBlockKitLimits(m)).toEqual([]);
    expect(JSON.stringify(m)).toContain('@school.example');
    const holders = buildDigestHoldersMessage(d);
    expect(checkBlockKitLimits(holders)).toEqual([]);
    expect(JSON.stringify(holders)).toContain('Stalled');
  });

  it('a list says its total and, after the names it shows, how many more there are', () => {
    const d = sample(2, 3, 42); // 3 pools a course, 7 stalled a pool: 42 stalled in all
    const stalled = d.names?.stalled;
    expect(stalled?.total).toBe(42);
    expect(stalled?.listed).toHaveLength(DIGEST_LISTED);
    const section = (m: { blocks: unknown[] }) =>
      m.blocks
        .map((b) => (b as { text?: { text?: string } }).text?.text ?? '')
        .find((t) => t.startsWith('*Stalled (')) ?? '';
    // "Show holders": up to 25 names, then the rest counted.
    const answer = section(buildDigestHoldersMessage(d));
    expect(answer).toContain('*Stalled (42):*');
    expect(answer.split('\n').filter((l) => l.startsWith('• '))).toHaveLength(25);
    expect(answer).toContain('…and 17 more.');
    expect(answer).toContain(String(stalled?.listed[0]?.email));
    // `/licenses digest`: up to 10, the first ones of the same order.
    const asked = section(buildDigestMessage(d, { names: true, showHolders: false }));
    const lines = asked.split('\n').filter((l) => l.startsWith('• '));
    expect(lines).toHaveLength(10);
    expect(lines[0]).toContain(String(stalled?.listed[0]?.email));
    expect(lines[9]).toContain(String(stalled?.listed[9]?.email));
    expect(asked).toContain('…and 32 more.');
    expect(buildDigestHoldersMessage(d).text).toContain('42 stalled');
  });

  it('forecast words', () => {
    expect(
      forecastWords('2003', { kind: 'fills', overDays: 30, perDay: 1, daysToFull: 21, fullOn: '2026-12-21' }),
    ).toBe("at the last 30 days' rate, pool 2003 is full in about 3 weeks (Dec 21, 2026)");
    expect(
      forecastWords('2003', {
        kind: 'ends-first',
        overDays: 30,
        perDay: 1,
        daysToFull: 90,
        fullOn: '2027-03-01',
        endsOn: '2026-12-20',
      }),
    ).toBe("at the last 30 days' rate, pool 2003 won't fill before it ends on Dec 20, 2026");
    expect(forecastWords('2003', { kind: 'no-new-seats', overDays: 30 })).toBe(
      'pool 2003: no new seats taken in 30 days',
    );
    expect(forecastWords('2003', { kind: 'too-little-history', days: 3 })).toContain('not enough history');
  });
});

describe('checkBlockKitLimits knows data_visualization', () => {
  const line = {
    type: 'data_visualization',
    title: 'Seats',
    chart: {
      type: 'line',
      series: [{ name: 'used', data: [{ label: 'a', value: 1 }] }],
      axis_config: { categories: ['a'] },
    },
  };
  it('accepts two in a message', () => {
    expect(checkBlockKitLimits({ text: 'x', blocks: [line, { ...line, block_id: 'b' }] })).toEqual([]);
  });
  it('refuses a third, a long title, a point off the categories, too many series', () => {
    expect(checkBlockKitLimits({ text: 'x', blocks: [line, line, line] }).join()).toContain('3 data_visualization');
    expect(checkBlockKitLimits({ text: 'x', blocks: [{ ...line, title: 'x'.repeat(51) }] }).join()).toContain(
      'limit 50',
    );
    const off = { ...line, chart: { ...line.chart, series: [{ name: 'used', data: [{ label: 'b', value: 1 }] }] } };
    expect(checkBlockKitLimits({ text: 'x', blocks: [off] }).join()).toContain('not one of the categories');
    const many = { ...line, chart: { ...line.chart, series: Array.from({ length: 5 }, () => line.chart.series[0]) } };
    expect(checkBlockKitLimits({ text: 'x', blocks: [many] }).join()).toContain('5 series');
  });
  it("holds Slack's limits: 20 categories, series names of 20 characters, a value of every series for every category, 6 pie segments", () => {
    const days = Array.from({ length: 21 }, (_, i) => `d${i}`);
    // The old seats chart: 21 days, "used" without the foreseen days and "forecast" without the past ones.
    const old = {
      ...line,
      chart: {
        type: 'line',
        series: [
          { name: 'used', data: days.slice(0, 11).map((label) => ({ label, value: 1 })) },
          { name: 'forecast', data: days.slice(10).map((label) => ({ label, value: 2 })) },
        ],
        axis_config: { categories: days },
      },
    };
    const problems = checkBlockKitLimits({ text: 'x', blocks: [old] }).join('\n');
    expect(problems).toContain('21 categories, allowed 1–20');
    expect(problems).toContain('series[0].data: no value for 10 of the 21 categories');
    expect(problems).toContain('series[1].data: no value for 10 of the 21 categories');
    // The old progress chart: a course title cut at 40 characters names its series.
    const named = {
      ...line,
      chart: { ...line.chart, series: [{ name: 'Data Modeling Essentials', data: [{ label: 'a', value: 1 }] }] },
    };
    expect(checkBlockKitLimits({ text: 'x', blocks: [named] }).join()).toContain('is 24 chars, limit 20');
    const pie = (n: number) => ({
      type: 'data_visualization',
      title: 'Pie',
      chart: { type: 'pie', segments: Array.from({ length: n }, (_, i) => ({ label: `s${i}`, value: 1 })) },
    });
    expect(checkBlockKitLimits({ text: 'x', blocks: [pie(6)] })).toEqual([]);
    expect(checkBlockKitLimits({ text: 'x', blocks: [pie(7)] }).join()).toContain('7 segments, allowed 1–6');
  });

  it('the digest\'s charts hold them: a course named "Data Modeling Essentials", a pool with a week of history and a forecast', () => {
    const pools = [
      { ...pool('2101', 1, 60, 30, 400, true), course: { id: '1', title: 'Data Modeling Essentials' } },
      { ...pool('2102', 2, 60, 10, 400), course: { id: '2', title: 'Data Modeling Essentials II' } },
    ];
    // Recorded every day of the last week (and a month before), filling at two seats a day.
    const usage = [-40, -7, -6, -5, -4, -3, -2, -1].map((k) => ({
      poolId: '2101',
      day: day(k),
      licenses: 60,
      assigned: k === -40 ? 4 : 30 + 2 * k,
      available: 0,
      transferable: true,
      end: iso(400),
    }));
    const holders = [holder(1, '2101', 40), holder(2, '2101', 100), holder(3, '2102', 0)];
    const d = assembleDigest({ pools, counts: countsOf(holders), completions: [], usage, now });
    expect(d.chartPoolId).toBe('2101');
    const m = buildDigestMessage(d, { names: false, showHolders: true, scheduled: true });
    expect(checkBlockKitLimits(m)).toEqual([]);
    const [seats, spread] = charts(m) as unknown as {
      chart: { series: { name: string; data: unknown[] }[]; axis_config: { categories: string[] } };
    }[];
    expect(seats?.chart.axis_config.categories.length).toBeLessThanOrEqual(20);
    expect(seats?.chart.series.map((s) => s.name)).toEqual(['used, then forecast', 'seats in pool']);
    // Two courses alike in their first 20 characters: two series, told apart.
    const names = spread?.chart.series.map((s) => s.name) ?? [];
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(Array.from(name).length).toBeLessThanOrEqual(20);
    expect(names[0]).toMatch(/^Data Modeling Essen/);
  });

  it('refuses it in a view (App Home, modals)', () => {
    expect(checkBlockKitLimits({ blocks: [line] }, 'view').join()).toContain('messages only');
    expect(
      checkModalLimits({ type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [line] }).join(),
    ).toContain('messages only');
  });
});
