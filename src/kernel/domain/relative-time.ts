/**
 * Human hints for dates ("in 3 days", "in 3 weeks", "2 months ago"). The days are counted by the one
 * rule of `calendarDaysUntil` (UTC calendar days, as `/licenses expiring` counts), so every view gives
 * the same date the same count. Managers think of license ends in weeks, so 14–59 days are given in
 * weeks; 60 days and more in months, then years.
 */
import { calendarDaysUntil } from './time.js';

/** "today", "tomorrow", "in 5 days" for a count of `calendarDaysUntil` (0 or more). */
export function inDaysText(days: number): string {
  if (days <= 0) return 'today';
  return days === 1 ? 'tomorrow' : `in ${days} days`;
}

/** "today", "yesterday", "5 days ago" for a count of `calendarDaysUntil` (0 or less). */
export function daysAgoText(days: number): string {
  if (days >= 0) return 'today';
  return days === -1 ? 'yesterday' : `${-days} days ago`;
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

export function relativeHint(iso: string, now: Date): string {
  const days = calendarDaysUntil(iso, now);
  if (days === undefined) return '';
  const ahead = days >= 0;
  const size = Math.abs(days);
  if (size < 14) return ahead ? inDaysText(size) : daysAgoText(days);
  const amount =
    size < 60
      ? plural(Math.round(size / 7), 'week')
      : size < 730
        ? plural(Math.round(size / 30.4375), 'month')
        : plural(Math.round(size / 365.25), 'year');
  return ahead ? `in ${amount}` : `${amount} ago`;
}
