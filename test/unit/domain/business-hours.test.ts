/** Business hours: the time a request waits that counts toward its escalation, across weekends and DST. */
import { describe, expect, it } from 'vitest';
import { businessMsBetween, parseBusinessDays, waitedMs } from '../../../src/kernel/domain/business-hours.js';

const HOUR = 3_600_000;
const weekdays = (timeZone: string) => ({ days: parseBusinessDays('mon-fri') as Set<number>, timeZone });
const at = (iso: string) => new Date(iso);

describe('business hours', () => {
  it('reads days, ranges, lists and a range over the weekend; says what is wrong otherwise', () => {
    expect([...(parseBusinessDays('mon-fri') as Set<number>)].sort()).toEqual([1, 2, 3, 4, 5]);
    expect([...(parseBusinessDays('Sun-Thu') as Set<number>)].sort()).toEqual([0, 1, 2, 3, 4]);
    expect([...(parseBusinessDays('mon,wed,fri') as Set<number>)].sort()).toEqual([1, 3, 5]);
    expect([...(parseBusinessDays('fri-mon') as Set<number>)].sort()).toEqual([0, 1, 5, 6]);
    expect(parseBusinessDays('monday-friday')).toMatch(/not a day or a range of days/);
    expect(parseBusinessDays(' , ')).toMatch(/at least one day/);
  });

  it('a weekend does not count: Friday 17:00 to Monday 10:00 is 7 + 10 hours', () => {
    const cal = weekdays('UTC');
    // 2026-11-27 is a Friday.
    expect(businessMsBetween(at('2026-11-27T17:00:00Z'), at('2026-11-30T10:00:00Z'), cal)).toBe(17 * HOUR);
    expect(businessMsBetween(at('2026-11-28T09:00:00Z'), at('2026-11-29T20:00:00Z'), cal)).toBe(0);
    expect(businessMsBetween(at('2026-11-30T10:00:00Z'), at('2026-11-27T10:00:00Z'), cal)).toBe(0);
  });

  it('counts the business days in the time zone, not in UTC', () => {
    // Friday 23:00 in New York is Saturday 04:00 UTC: the hour from 23:00 to midnight counts there.
    const ny = weekdays('America/New_York');
    expect(businessMsBetween(at('2026-11-28T04:00:00Z'), at('2026-11-28T05:00:00Z'), ny)).toBe(HOUR);
    expect(businessMsBetween(at('2026-11-28T04:00:00Z'), at('2026-11-28T05:00:00Z'), weekdays('UTC'))).toBe(0);
  });

  it('a day daylight saving time ends counts 25 hours, the day it starts 23 (Europe/Berlin)', () => {
    const everyDay = { days: parseBusinessDays('mon-sun') as Set<number>, timeZone: 'Europe/Berlin' };
    // 2026-10-25 (Sunday): clocks go back; Saturday and Sunday, local midnight to midnight.
    expect(businessMsBetween(at('2026-10-23T22:00:00Z'), at('2026-10-25T23:00:00Z'), everyDay)).toBe(49 * HOUR);
    // 2026-03-29 (Sunday): clocks go forward; only Sunday counts.
    const sundays = { days: parseBusinessDays('sun') as Set<number>, timeZone: 'Europe/Berlin' };
    expect(businessMsBetween(at('2026-03-27T12:00:00Z'), at('2026-03-30T12:00:00Z'), sundays)).toBe(23 * HOUR);
    // A work week across the change: Friday 12:00 to Monday 12:00 local is 12 + 12 hours.
    const berlin = weekdays('Europe/Berlin');
    expect(businessMsBetween(at('2026-10-23T10:00:00Z'), at('2026-10-26T11:00:00Z'), berlin)).toBe(24 * HOUR);
  });

  it('without a calendar every hour counts', () => {
    expect(waitedMs(at('2026-11-27T17:00:00Z'), at('2026-11-30T10:00:00Z'), undefined)).toBe(65 * HOUR);
    expect(waitedMs(at('2026-11-27T17:00:00Z'), at('2026-11-30T10:00:00Z'), weekdays('UTC'))).toBe(17 * HOUR);
  });
});
