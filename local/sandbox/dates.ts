import { DAY_MS } from '../../src/kernel/domain/time.js';
/**
 * Date helpers of the sandbox. Every date-time it emits has the shape of the contract's examples,
 * `2024-04-17T15:23:08+00:00` (UTC, whole seconds, explicit offset; licensing-api-extras.md "Other facts").
 * A date-only value (`endDate`, YYYY-MM-DD) names a UTC calendar day.
 */

/** `2024-04-17T15:23:08+00:00`: UTC, no milliseconds. */
export function formatDateTime(date: Date | number): string {
  const ms = typeof date === 'number' ? date : date.getTime();
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;
}

/** Re-emits any parseable ISO 8601 date-time in the sandbox's own shape; undefined if unparseable. */
export function normalizeDateTime(value: string): string | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : formatDateTime(ms);
}

/** The UTC calendar day (YYYY-MM-DD) of a date-time. */
export function calendarDayOf(date: Date | number | string): string {
  const ms = typeof date === 'string' ? Date.parse(date) : typeof date === 'number' ? date : date.getTime();
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Accepts only real calendar days written YYYY-MM-DD (so 2025-02-30 and 2025-2-3 are refused);
 * returns the day unchanged, or undefined.
 */
export function parseCalendarDay(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const valid =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 1970;
  return valid ? value : undefined;
}

/** A license given the end date D lasts through that whole UTC day: D at 23:59:59+00:00. */
export function endOfDay(day: string): string {
  return `${day}T23:59:59+00:00`;
}

export function startOfDay(day: string): string {
  return `${day}T00:00:00+00:00`;
}

/** The calendar day `days` after the UTC day of `from` (negative goes back). */
export function dayOffset(from: Date, days: number): string {
  return calendarDayOf(Date.parse(startOfDay(calendarDayOf(from))) + days * DAY_MS);
}

export function toMs(dateTime: string): number {
  return Date.parse(dateTime);
}

/** The earlier of two date-times (as emitted strings). */
export function earlier(a: string, b: string): string {
  return toMs(a) <= toMs(b) ? a : b;
}

export function later(a: string, b: string): string {
  return toMs(a) >= toMs(b) ? a : b;
}
