import { describe, expect, it } from 'vitest';
import { BULK_MAX_ROWS, parseBulkLine, parseBulkList } from '../../../src/bulk/domain/bulk-list.js';
import { chooseEnrolmentRead, endDateProblem, planBulk } from '../../../src/bulk/domain/bulk-plan.js';
import { recycleCandidates } from '../../../src/changes/domain/recycle.js';
import { inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

describe('parseBulkList', () => {
  it('reads email, "name, email", "email, name", "Name <email>", tabs and semicolons', () => {
    expect(parseBulkLine('ada@x.com')).toMatchObject({ email: 'ada@x.com' });
    expect(parseBulkLine('Ada Lovelace, ada@x.com')).toMatchObject({ email: 'ada@x.com', name: 'Ada Lovelace' });
    expect(parseBulkLine('ada@x.com; Ada')).toMatchObject({ email: 'ada@x.com', name: 'Ada' });
    expect(parseBulkLine('Ada\tada@x.com')).toMatchObject({ email: 'ada@x.com', name: 'Ada' });
    expect(parseBulkLine('"Ada L" <ada@x.com>')).toMatchObject({ email: 'ada@x.com', name: 'Ada L' });
    expect(parseBulkLine('no email here')).toMatchObject({ email: 'no email here' });
  });

  it('numbers non-blank lines across boxes, skips comments, and caps at 500', () => {
    const r = parseBulkList(['a@x.com\n\n# team B\n b@x.com ', 'c@x.com']);
    expect(r.rows.map((x) => [x.line, x.email])).toEqual([
      [1, 'a@x.com'],
      [2, 'b@x.com'],
      [3, 'c@x.com'],
    ]);
    const many = Array.from({ length: BULK_MAX_ROWS + 7 }, (_, i) => `s${i}@x.com`).join('\n');
    const capped = parseBulkList([many]);
    expect(capped.rows).toHaveLength(BULK_MAX_ROWS);
    expect(capped.extra).toBe(7);
  });
});

describe('planBulk', () => {
  const rows = parseBulkList([
    ['ok@contoso.com', 'bad', 'x@gmail.com', 'held@contoso.com', 'OK@contoso.com', 'two@contoso.com'].join('\n'),
  ]).rows;
  const base = { rows, allowedDomains: ['contoso.com'], enrolled: new Set(['held@contoso.com']), poolLicenses: [] };

  it('gives each row one verdict, in the order a person would fix them', () => {
    const plan = planBulk({ ...base, pool: makePool({ availableLicenses: 5 }) });
    expect(plan.rows.map((r) => r.verdict)).toEqual([
      'ready',
      'invalid-email',
      'domain-not-allowed',
      'already-enrolled',
      'duplicate',
      'ready',
    ]);
    expect(plan).toMatchObject({ ready: 2, seatsFree: 5, shortfall: 0, seats: 'ok' });
  });

  it('untransferable pools take any domain, but cannot free seats', () => {
    const plan = planBulk({ ...base, pool: makePool({ transferable: false, availableLicenses: 1 }) });
    expect(plan.rows[2]?.verdict).toBe('ready');
    expect(plan.seats).toBe('blocked');
    expect(plan.blockedReason).toMatch(/not transferable/);
  });

  it('a short transferable pool names the oldest licenses recycling would end, and marks the rows past the free seats', () => {
    const old = makeLicense({ id: '1', start: inDays(-300) });
    const older = makeLicense({ id: '2', start: inDays(-400) });
    const recent = makeLicense({ id: '3', start: inDays(-10) });
    const plan = planBulk({
      ...base,
      pool: makePool({ availableLicenses: 1, licenses: 3 }),
      poolLicenses: [recent, old, older],
    });
    expect(plan.seats).toBe('recycle');
    expect(plan.shortfall).toBe(1);
    expect(plan.toFree.map((l) => l.id)).toEqual(['2']);
    expect(plan.rows.filter((r) => r.recycle).map((r) => r.email)).toEqual(['two@contoso.com']);
  });

  it('never recycles more seats than the pool had holders', () => {
    const plan = planBulk({
      ...base,
      pool: makePool({ availableLicenses: 0, licenses: 1 }),
      poolLicenses: [makeLicense()],
    });
    expect(plan.seats).toBe('blocked');
  });

  it('endDateProblem: past, after the pool end, malformed', () => {
    const pool = makePool({ start: inDays(-10), end: inDays(30) });
    expect(endDateProblem(inDays(5).slice(0, 10), pool, NOW)).toBeUndefined();
    expect(endDateProblem(inDays(-1).slice(0, 10), pool, NOW)).toMatch(/past/);
    expect(endDateProblem(inDays(31).slice(0, 10), pool, NOW)).toMatch(/pool ends/);
    expect(endDateProblem('2026-13-45', pool, NOW)).toMatch(/calendar/);
  });

  it('endDateProblem reads days as end-date.ts does: no impossible days, no throw on an unreadable pool date', () => {
    const long = makePool({ start: '2020-01-01T00:00:00+00:00', end: '2099-12-31T00:00:00+00:00' });
    expect(endDateProblem('2098-02-30', long, NOW)).toMatch(/calendar/);
    expect(endDateProblem('2098-02-28', long, NOW)).toBeUndefined();
    const odd = makePool({ start: 'not a date', end: 'not a date' });
    expect(() => endDateProblem('2098-02-28', odd, NOW)).not.toThrow();
    expect(endDateProblem('2098-02-28', odd, NOW)).toBeUndefined();
  });

  it('names the seats recycling would end in the order recycle.ts gives (ties by numeric id)', () => {
    const start = inDays(-100);
    const licenses = ['10', '9', '100'].map((id) => makeLicense({ id, start }));
    const plan = planBulk({
      ...base,
      pool: makePool({ availableLicenses: 0, licenses: 3 }),
      poolLicenses: licenses,
    });
    expect(plan.toFree.map((l) => l.id)).toEqual(
      recycleCandidates(licenses, NOW)
        .slice(0, 2)
        .map((l) => l.id),
    );
    expect(plan.toFree.map((l) => l.id)).toEqual(['9', '10']);
  });
});

describe('chooseEnrolmentRead', () => {
  const pool = (course: string, assigned: number) => ({
    course: { id: course, title: course },
    assignedLicenses: assigned,
  });
  it('a course with one small pool walks it; a course with many pools looks up or walks every license', () => {
    const one = chooseEnrolmentRead({
      emails: 50,
      pools: [pool('A', 20), pool('B', 9000)],
      courseId: 'A',
      pageSize: 100,
    });
    expect(one).toEqual({ way: 'pools', cost: { pools: 1, licenses: 91, lookup: 50 } });
    const many = Array.from({ length: 100 }, () => pool('A', 3));
    expect(chooseEnrolmentRead({ emails: 3, pools: many, courseId: 'A', pageSize: 100 }).way).toBe('lookup');
    expect(chooseEnrolmentRead({ emails: 50, pools: many, courseId: 'A', pageSize: 100 })).toMatchObject({
      way: 'licenses',
      cost: { licenses: 4 },
    });
  });
  it('a negative assigned count costs nothing rather than less than nothing', () => {
    const choice = chooseEnrolmentRead({
      emails: 3,
      pools: [pool('A', -4), pool('A', 2)],
      courseId: 'A',
      pageSize: 10,
    });
    expect(choice.cost).toEqual({ pools: 1, licenses: 1, lookup: 3 });
  });
});
