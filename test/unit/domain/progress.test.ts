import { describe, expect, it } from 'vitest';
import type { License } from '../../../src/kernel/domain/types.js';
import {
  countStandings,
  daysSince,
  isCompleted,
  observationOf,
  progressChanged,
  progressSince,
  progressStanding,
} from '../../../src/progress/domain/progress.js';

const NOW = new Date('2026-04-01T12:00:00Z');
/** A license as the licensing API gives it. */
const L9: License = {
  id: 'L9',
  poolId: '2003',
  courseId: 'c7',
  start: '2026-01-05',
  end: '2026-12-31',
  active: true,
  revokable: true,
  editable: true,
  student: { id: 's1', name: 'Ada Lovelace', email: 'ada@contoso.com' },
};
const base = { progress: 0, completed: null, start: '2026-03-01', changedAt: '2026-03-20T03:00:00.000Z' };

describe('where a holder stands', () => {
  it('a completion date or 100 % is completed, whatever else', () => {
    expect(progressStanding({ ...base, progress: 30, completed: '2026-03-30T10:00:00Z' }, NOW)).toBe('completed');
    expect(progressStanding({ ...base, progress: 100 }, NOW)).toBe('completed');
    expect(isCompleted({ progress: 99.5, completed: null })).toBe(false);
  });

  it('0 % counts as not started only once the license is older than the threshold', () => {
    expect(progressStanding({ ...base, start: '2026-03-18' }, NOW)).toBe('not-started'); // 14 days
    expect(progressStanding({ ...base, start: '2026-03-19' }, NOW)).toBe('progressing'); // 13 days
    expect(progressStanding({ ...base, start: '2026-03-25' }, NOW, { notStartedDays: 5, stalledDays: 30 })).toBe(
      'not-started',
    );
  });

  it('started holders stall after the days without a change', () => {
    const started = { ...base, progress: 40 };
    expect(progressStanding({ ...started, changedAt: '2026-03-02T12:00:00Z' }, NOW)).toBe('stalled'); // 30 days
    expect(progressStanding({ ...started, changedAt: '2026-03-03T12:00:00Z' }, NOW)).toBe('progressing');
  });

  it('counts standings', () => {
    expect(
      countStandings(
        [
          { ...base, progress: 100 },
          { ...base, start: '2026-01-01' },
          { ...base, progress: 10, changedAt: '2026-01-01T00:00:00Z' },
          { ...base, progress: 10 },
        ],
        NOW,
      ),
    ).toEqual({ completed: 1, notStarted: 1, stalled: 1, progressing: 1 });
  });
});

describe('since when', () => {
  it('0 % and never changed: since the start of the license', () => {
    expect(progressSince({ progress: 0, start: '2026-03-01', changedAt: 'a', firstSeenAt: 'a' })).toEqual({
      at: '2026-03-01',
      watched: true,
    });
  });
  it('a change seen: since that change; none seen: since License Desk started watching ("at least")', () => {
    expect(progressSince({ progress: 20, start: '2026-03-01', changedAt: 'b', firstSeenAt: 'a' })).toEqual({
      at: 'b',
      watched: true,
    });
    expect(progressSince({ progress: 20, start: '2026-03-01', changedAt: 'a', firstSeenAt: 'a' })).toEqual({
      at: 'a',
      watched: false,
    });
  });
  it('days since and what counts as a change', () => {
    expect(daysSince('not a date', NOW)).toBe(0);
    expect(daysSince('2026-05-01', NOW)).toBe(0);
    expect(daysSince('2026-03-31T12:00:00Z', NOW)).toBe(1);
    expect(progressChanged({ progress: 5, completed: null }, { progress: 5, completed: null })).toBe(false);
    expect(progressChanged({ progress: 5, completed: null }, { progress: 5, completed: 'x' })).toBe(true);
  });
});

describe('what a pass would see of a license', () => {
  it("takes the license's ids, holder, dates and state, and the given progress", () => {
    expect(observationOf(L9, 40)).toEqual({
      licenseId: 'L9',
      poolId: '2003',
      courseId: 'c7',
      studentId: 's1',
      studentEmail: 'ada@contoso.com',
      studentName: 'Ada Lovelace',
      progress: 40,
      completed: null,
      start: '2026-01-05',
      end: '2026-12-31',
      active: true,
    });
    expect(observationOf({ ...L9, active: false }, 100, '2026-03-01T00:00:00Z')).toMatchObject({
      completed: '2026-03-01T00:00:00Z',
      active: false,
    });
  });
});
