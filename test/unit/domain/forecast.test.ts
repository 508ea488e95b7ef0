import { describe, expect, it } from 'vitest';
import { assignedOn, forecastPool, type UsageDay, usageLines } from '../../../src/digest/domain/forecast.js';

const now = new Date('2026-11-30T09:00:00Z');
const day = (offset: number) =>
  new Date(Date.parse('2026-11-30T00:00:00Z') + offset * 86_400_000).toISOString().slice(0, 10);
const u = (offset: number, assigned: number, licenses = 100): UsageDay => ({ day: day(offset), assigned, licenses });
const FAR_END = '2027-12-31T00:00:00+00:00';

describe('forecastPool', () => {
  it('fills: 30 seats taken in the last 30 days, 21 free -> full in 21 days', () => {
    const f = forecastPool({ usage: [u(-40, 49), u(-10, 70)], assigned: 79, licenses: 100, end: FAR_END, now });
    // start of window (day -30): 49 in use (the day -40 record); now 79: 30 in 30 days = 1 a day.
    expect(f).toEqual({ kind: 'fills', overDays: 30, perDay: 1, daysToFull: 21, fullOn: day(21) });
  });

  it('a pool started this week has too little history, whatever days were recorded before its start', () => {
    const f = forecastPool({
      usage: [u(-40, 10), u(-15, 20), u(0, 30)],
      assigned: 30,
      licenses: 100,
      end: FAR_END,
      start: `${day(-3)}T08:00:00+00:00`,
      now,
    });
    expect(f).toEqual({ kind: 'too-little-history', days: 3 });
    // Started 10 days ago: the pace is taken over those 10 days only.
    const g = forecastPool({
      usage: [u(-40, 0), u(-10, 0)],
      assigned: 20,
      licenses: 100,
      end: FAR_END,
      start: `${day(-10)}T08:00:00+00:00`,
      now,
    });
    expect(g).toMatchObject({ kind: 'fills', overDays: 10, perDay: 2 });
  });

  it('rounds the days up: 10 free at 3 a day is 4 days', () => {
    const f = forecastPool({ usage: [u(-30, 0)], assigned: 90, licenses: 100, end: FAR_END, now });
    expect(f).toMatchObject({ kind: 'fills', perDay: 3, daysToFull: 4, fullOn: day(4) });
  });

  it('ends-first: the pool ends before this pace would fill it', () => {
    const f = forecastPool({ usage: [u(-30, 0)], assigned: 30, licenses: 100, end: `${day(20)}T12:00:00+00:00`, now });
    expect(f).toEqual({
      kind: 'ends-first',
      overDays: 30,
      perDay: 1,
      daysToFull: 70,
      fullOn: day(70),
      endsOn: day(20),
    });
  });

  it('no new seats: as many revoked as assigned in the window, or none at all', () => {
    expect(forecastPool({ usage: [u(-60, 40), u(-5, 45)], assigned: 40, licenses: 100, end: FAR_END, now })).toEqual({
      kind: 'no-new-seats',
      overDays: 30,
    });
    expect(forecastPool({ usage: [u(-90, 40)], assigned: 40, licenses: 100, end: FAR_END, now }).kind).toBe(
      'no-new-seats',
    );
  });

  it('too little history: recorded for fewer than 7 days, or never', () => {
    expect(forecastPool({ usage: [u(-3, 10)], assigned: 20, licenses: 100, end: FAR_END, now })).toEqual({
      kind: 'too-little-history',
      days: 3,
    });
    expect(forecastPool({ usage: [], assigned: 20, licenses: 100, end: FAR_END, now })).toEqual({
      kind: 'too-little-history',
      days: 0,
    });
  });

  it('shorter history than the window: the pace over the days there are', () => {
    const f = forecastPool({ usage: [u(-10, 0)], assigned: 20, licenses: 100, end: FAR_END, now });
    expect(f).toMatchObject({ kind: 'fills', overDays: 10, perDay: 2, daysToFull: 40 });
  });

  it('full: no free seat, whatever the history', () => {
    expect(forecastPool({ usage: [], assigned: 100, licenses: 100, end: FAR_END, now })).toEqual({ kind: 'full' });
  });

  it('ignores days after now', () => {
    const f = forecastPool({ usage: [u(-30, 0), u(5, 99)], assigned: 30, licenses: 100, end: FAR_END, now });
    expect(f).toMatchObject({ kind: 'fills', perDay: 1, daysToFull: 70 });
  });
});

describe('assignedOn and usageLines', () => {
  it('reads the last recorded day on or before a day', () => {
    const usage = [u(-20, 5), u(-10, 8)];
    expect(assignedOn(usage, day(-25))).toBeUndefined();
    expect(assignedOn(usage, day(-15))).toBe(5);
    expect(assignedOn(usage, day(-10))).toBe(8);
  });

  it('draws the past every 3 days to today, and the forecast from today to the day it is full', () => {
    const input = { usage: [u(-40, 49)], assigned: 79, licenses: 100, end: FAR_END, now };
    const f = forecastPool(input);
    const lines = usageLines(input, f);
    expect(lines.used).toHaveLength(11);
    expect(lines.used.at(-1)).toEqual({ day: day(0), assigned: 79 });
    expect(lines.forecast[0]).toEqual({ day: day(0), assigned: 79 });
    expect(lines.forecast.at(-1)).toEqual({ day: day(21), assigned: 100 });
    expect(lines.forecast.length).toBeLessThanOrEqual(11);
  });

  it('has no forecast line when nothing is filling', () => {
    const input = { usage: [u(-40, 49)], assigned: 49, licenses: 100, end: FAR_END, now };
    expect(usageLines(input, forecastPool(input)).forecast).toEqual([]);
  });
});
