import { describe, expect, it } from 'vitest';
import * as dates from '../../../src/kernel/domain/end-date.js';
import { inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

describe('days', () => {
  it('parses only real YYYY-MM-DD days, in UTC', () => {
    expect(dates.parseDay('2026-02-28')).toBe('2026-02-28');
    expect(dates.parseDay('2026-02-30')).toBeUndefined();
    expect(dates.parseDay('2026-2-3')).toBeUndefined();
    expect(dates.today(NOW)).toBe('2026-03-01');
    expect(dates.addDays('2026-02-27', 2)).toBe('2026-03-01');
  });
});

describe('checkAssignEndDate', () => {
  const pool = makePool({ start: '2026-01-01T00:00:00+00:00', end: '2026-06-30T23:59:59+00:00' });
  it('never in the past, never after the pool end; the pool end itself is fine', () => {
    expect(dates.checkAssignEndDate('2026-02-28', pool, NOW)).toBe('past');
    expect(dates.checkAssignEndDate('2026-03-01', pool, NOW)).toBeUndefined();
    expect(dates.checkAssignEndDate('2026-06-30', pool, NOW)).toBeUndefined();
    expect(dates.checkAssignEndDate('2026-07-01', pool, NOW)).toBe('after-pool-end');
  });
});

describe('endDateBlocker and classifyNewEndDate', () => {
  it('the PATCH rules, first failing one named', () => {
    expect(dates.endDateBlocker(makeLicense(), makePool(), NOW)).toBeUndefined();
    expect(dates.endDateBlocker(makeLicense(), undefined, NOW)).toBe('pool-unknown');
    expect(dates.endDateBlocker(makeLicense(), makePool({ transferable: false }), NOW)).toBe('not-transferable');
    expect(dates.endDateBlocker(makeLicense({ active: false }), makePool(), NOW)).toBe('inactive');
    expect(dates.endDateBlocker(makeLicense({ end: inDays(-1) }), makePool(), NOW)).toBe('expired');
    expect(dates.endDateBlocker(makeLicense({ editable: false }), makePool(), NOW)).toBe('not-editable');
  });

  it('past, unchanged, after the pool end, or a move', () => {
    const license = makeLicense({ end: '2026-04-30T23:59:59+00:00' });
    const pool = makePool({ end: '2026-06-30T23:59:59+00:00' });
    expect(dates.classifyNewEndDate('2026-02-01', license, pool, NOW)).toEqual({ kind: 'past' });
    expect(dates.classifyNewEndDate('2026-04-30', license, pool, NOW)).toEqual({ kind: 'unchanged' });
    expect(dates.classifyNewEndDate('2026-07-01', license, pool, NOW)).toEqual({
      kind: 'after-pool-end',
      poolEnd: '2026-06-30',
    });
    expect(dates.classifyNewEndDate('2026-05-15', license, pool, NOW)).toEqual({ kind: 'move' });
  });
});

describe('quickChoices', () => {
  it('+30, +90 from the current end and the pool end, only within the pool and only real changes', () => {
    const pool = makePool({ end: '2026-09-30T23:59:59+00:00' });
    expect(dates.quickChoices(makeLicense({ end: '2026-04-30T23:59:59+00:00' }), pool, NOW)).toEqual([
      { label: '+30 days', day: '2026-05-30' },
      { label: '+90 days', day: '2026-07-29' },
      { label: 'Pool end', day: '2026-09-30' },
    ]);
    expect(dates.quickChoices(makeLicense({ end: '2026-09-10T23:59:59+00:00' }), pool, NOW)).toEqual([
      { label: 'Pool end', day: '2026-09-30' },
    ]);
    expect(dates.quickChoices(makeLicense({ end: '2026-09-30T12:00:00+00:00' }), pool, NOW)).toEqual([]);
  });
});
