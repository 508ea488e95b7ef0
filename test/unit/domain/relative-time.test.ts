import { describe, expect, it } from 'vitest';
import { daysLeft } from '../../../src/browse/domain/expiring.js';
import { relativeHint } from '../../../src/kernel/domain/relative-time.js';
import { calendarDaysUntil } from '../../../src/kernel/domain/time.js';
import { inDays, NOW } from '../../support/fixtures.js';

describe('relativeHint', () => {
  it.each([
    [0.5, 'tomorrow'],
    [-0.5, 'today'],
    [3, 'in 3 days'],
    [13, 'in 13 days'],
    [21, 'in 3 weeks'],
    [-21, '3 weeks ago'],
    [59, 'in 8 weeks'],
    [90, 'in 3 months'],
    [-200, '7 months ago'],
    [800, 'in 2 years'],
  ])('%d days -> %s', (days, hint) => {
    expect(relativeHint(inDays(days), NOW)).toBe(hint);
  });

  it('is empty for an unparsable date', () => {
    expect(relativeHint('not a date', NOW)).toBe('');
  });
});

describe('the one rule for "in N days": UTC calendar days', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    // [now, end, days]
    ['2026-05-04T00:00:00Z', '2026-05-07T23:59:59+00:00', 3],
    ['2026-05-04T09:00:00Z', '2026-05-07T23:59:59+00:00', 3],
    ['2026-05-04T23:59:59Z', '2026-05-07T23:59:59+00:00', 3],
    ['2026-05-04T23:59:59Z', '2026-05-07T00:00:00+00:00', 3],
    ['2026-05-05T00:00:00Z', '2026-05-07T23:59:59+00:00', 2],
    ['2026-05-07T12:00:00Z', '2026-05-07T23:59:59+00:00', 0],
    ['2026-05-07T23:59:58Z', '2026-05-08T00:00:00+00:00', 1],
    ['2026-05-08T00:00:01Z', '2026-05-07T23:59:59+00:00', -1],
  ])('now %s, end %s: %d', (now, end, days) => {
    expect(calendarDaysUntil(end, at(now))).toBe(days);
  });

  it('the hint, the expiring count and its words agree at every hour of a day', () => {
    const end = '2026-05-07T23:59:59+00:00';
    for (let hour = 0; hour < 24; hour += 1) {
      const now = new Date(Date.UTC(2026, 4, 4, hour, 30));
      expect(daysLeft({ active: true, end }, now)).toBe(3);
      expect(relativeHint(end, now)).toBe('in 3 days');
    }
    expect(relativeHint(end, at('2026-05-06T01:00:00Z'))).toBe('tomorrow');
    expect(relativeHint(end, at('2026-05-07T22:00:00Z'))).toBe('today');
    expect(relativeHint(end, at('2026-05-08T01:00:00Z'))).toBe('yesterday');
  });

  it('is undefined for an unreadable date', () => {
    expect(calendarDaysUntil('soon', NOW)).toBeUndefined();
  });
});
