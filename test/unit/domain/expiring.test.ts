import { describe, expect, it } from 'vitest';
import { daysLeft, expiringWithin } from '../../../src/browse/domain/expiring.js';
import { makeLicense, makePool, NOW } from '../../support/fixtures.js';

// NOW is 2026-03-01T12:00:00Z.
const ending = (end: string, over: Parameters<typeof makeLicense>[0] = {}) => makeLicense({ end, ...over });

describe('days left, in UTC calendar days', () => {
  it.each([
    ['2026-03-01T18:00:00+00:00', 0],
    ['2026-03-02T00:30:00+00:00', 1],
    ['2026-03-04T23:59:59+00:00', 3],
    ['2026-03-15T08:00:00+00:00', 14],
  ])('%s: %i', (end, days) => {
    expect(daysLeft(ending(end), NOW)).toBe(days);
  });

  it('none for a license that ended, is inactive or has an unreadable end', () => {
    expect(daysLeft(ending('2026-03-01T11:59:59+00:00'), NOW)).toBeUndefined();
    expect(daysLeft(ending('2026-03-03T00:00:00+00:00', { active: false }), NOW)).toBeUndefined();
    expect(daysLeft(ending('soon'), NOW)).toBeUndefined();
  });
});

describe('expiringWithin', () => {
  it('keeps at most `days` days left, soonest first, ties by student name, with each pool', () => {
    const pool = makePool({ id: '2001' });
    const licenses = [
      ending('2026-03-05T10:00:00+00:00', { id: 'c', student: { id: '1', name: 'Zoe', email: 'z@x.com' } }),
      ending('2026-03-02T10:00:00+00:00', { id: 'a', poolId: '2001' }),
      ending('2026-03-05T10:00:00+00:00', { id: 'b', student: { id: '2', name: 'Ada', email: 'a@x.com' } }),
      ending('2026-03-06T10:00:00+00:00', { id: 'late' }),
    ];
    const rows = expiringWithin(licenses, new Map([['2001', pool]]), 4, NOW);
    expect(rows.map((r) => [r.license.id, r.daysLeft])).toEqual([
      ['a', 1],
      ['b', 4],
      ['c', 4],
    ]);
    expect(rows[0]?.pool).toBe(pool);
  });
});
