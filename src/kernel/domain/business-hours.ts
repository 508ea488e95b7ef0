/**
 * Business hours (docs/roles-and-approvals.md, "Escalation and the daily list"): the time that counts
 * when a request waits is the time that falls on a business day (REQUEST_BUSINESS_DAYS, e.g.
 * `mon-fri`) in a time zone (REQUEST_TIMEZONE, IANA). A business day counts whole, midnight to
 * midnight in that zone: 24 hours, or 23 and 25 on the days daylight saving time starts and ends.
 * Pure: the clock is a parameter.
 */

import { wallClock } from './time.js';

/** The days that count (0 Sunday … 6 Saturday) in an IANA time zone. */
export interface BusinessCalendar {
  days: ReadonlySet<number>;
  timeZone: string;
}

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * The weekdays of `text`: names of three letters, ranges (`mon-fri`, `sun-thu`) and lists
 * (`mon,wed,fri`), in any case. A string says what is wrong.
 */
export function parseBusinessDays(text: string): Set<number> | string {
  const days = new Set<number>();
  const index = (name: string) => DAY_NAMES.indexOf(name.trim().toLowerCase() as (typeof DAY_NAMES)[number]);
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const [from, to, ...rest] = part.split('-');
    const a = index(from ?? '');
    const b = to === undefined ? a : index(to);
    if (a < 0 || b < 0 || rest.length > 0) {
      return `"${part.trim()}" is not a day or a range of days; write e.g. mon-fri or mon,tue,thu`;
    }
    for (let d = a; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === b) break;
    }
  }
  return days.size > 0 ? days : 'name at least one day, e.g. mon-fri';
}

/** How far `at`'s wall clock in `timeZone` is ahead of UTC, in ms. */
function offsetMs(at: number, timeZone: string): number {
  const w = wallClock(new Date(at), timeZone);
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant local midnight starts the day `y-m-d` (month from 0) in `timeZone`. */
function localMidnight(y: number, m: number, d: number, timeZone: string): number {
  const wall = Date.UTC(y, m, d);
  const guess = wall - offsetMs(wall, timeZone);
  return wall - offsetMs(guess, timeZone);
}

/** The local calendar day of `at` in `timeZone`, as year, month (from 0) and day. */
function localDay(at: number, timeZone: string): { y: number; m: number; d: number } {
  const local = new Date(at + offsetMs(at, timeZone));
  return { y: local.getUTCFullYear(), m: local.getUTCMonth(), d: local.getUTCDate() };
}

/** Days walked at most: a wait longer than this counts as this long (far past any setting). */
const MAX_DAYS = 800;

/** The ms between `from` and `to` that fall on business days of `calendar` (0 when `to` is not later). */
export function businessMsBetween(from: Date, to: Date, calendar: BusinessCalendar): number {
  const start = from.getTime();
  const end = to.getTime();
  if (!(end > start)) return 0;
  let { y, m, d } = localDay(start, calendar.timeZone);
  let total = 0;
  for (let i = 0; i < MAX_DAYS; i++) {
    const dayStart = localMidnight(y, m, d, calendar.timeZone);
    if (dayStart >= end) break;
    const next = new Date(Date.UTC(y, m, d + 1));
    const dayEnd = localMidnight(next.getUTCFullYear(), next.getUTCMonth(), next.getUTCDate(), calendar.timeZone);
    if (calendar.days.has(new Date(Date.UTC(y, m, d)).getUTCDay())) {
      total += Math.max(0, Math.min(end, dayEnd) - Math.max(start, dayStart));
    }
    y = next.getUTCFullYear();
    m = next.getUTCMonth();
    d = next.getUTCDate();
  }
  return total;
}

/** The time that counts between `from` and `to`: on business days with a calendar, else all of it. */
export function waitedMs(from: Date, to: Date, calendar: BusinessCalendar | undefined): number {
  return calendar ? businessMsBetween(from, to, calendar) : Math.max(0, to.getTime() - from.getTime());
}
