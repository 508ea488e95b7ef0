/**
 * End dates as the licensing API sees them: a YYYY-MM-DD names a UTC calendar day (licensing-api.md,
 * PATCH rules; the sandbox's dates.ts). Pure: every rule takes `now`.
 */

import { DAY_MS } from './time.js';
import type { License, Pool } from './types.js';

/** The UTC calendar day of an ISO date-time, or '' when it cannot be read. */
export function dayOf(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : new Date(at).toISOString().slice(0, 10);
}

// Built at first use, not at load: the first Intl formatter of a process loads ICU's data (milliseconds
// of start-up otherwise, before the app can answer).
let dayTextFormat: Intl.DateTimeFormat | undefined;
const DAY_TEXT = () =>
  (dayTextFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  }));

/**
 * The one way a calendar day is shown to a person (messages, modals, App Home, `try`): `Jul 28, 2027`,
 * the UTC day License Desk counts in and the date pickers pick, so it reads the same for everyone.
 * ISO days stay where a person types a date, in CSV and in logs. '' when `iso` cannot be read.
 */
export function dayText(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : DAY_TEXT().format(at);
}

export function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Accepts only real days written YYYY-MM-DD (2026-02-30 is refused). */
export function parseDay(value: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  const real = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
  return real && y >= 2000 && y <= 2200 ? value : undefined;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export type AssignDateProblem = 'past' | 'after-pool-end' | 'before-pool-start';

/** An optional end date for a new license: never in the past, never after the pool end (nor before it starts). */
export function checkAssignEndDate(
  day: string,
  pool: Pick<Pool, 'start' | 'end'>,
  now: Date,
): AssignDateProblem | undefined {
  if (day < today(now)) return 'past';
  const end = dayOf(pool.end);
  if (end !== '' && day > end) return 'after-pool-end';
  const start = dayOf(pool.start);
  if (start !== '' && day < start) return 'before-pool-start';
  return undefined;
}

export type EndDateBlocker = 'pool-unknown' | 'not-transferable' | 'inactive' | 'expired' | 'not-editable';

/** Why PATCH would be refused before we send it (rules 1 and 2, and the server's own `editable`). */
export function endDateBlocker(
  license: Pick<License, 'active' | 'end' | 'editable'>,
  pool: Pick<Pool, 'transferable'> | undefined,
  now: Date,
): EndDateBlocker | undefined {
  if (!pool) return 'pool-unknown';
  if (!pool.transferable) return 'not-transferable';
  if (!license.active) return 'inactive';
  const end = Date.parse(license.end);
  if (!Number.isNaN(end) && end <= now.getTime()) return 'expired';
  if (!license.editable) return 'not-editable';
  return undefined;
}

/** What a new end date means: a past day ends the license for good (rule 3); a future one moves it. */
export type NewEndDate =
  | { kind: 'past' }
  | { kind: 'move' }
  | { kind: 'unchanged' }
  | { kind: 'after-pool-end'; poolEnd: string };

export function classifyNewEndDate(
  day: string,
  license: Pick<License, 'end'>,
  pool: Pick<Pool, 'end'>,
  now: Date,
): NewEndDate {
  if (day < today(now)) return { kind: 'past' };
  const poolEnd = dayOf(pool.end);
  if (poolEnd !== '' && day > poolEnd) return { kind: 'after-pool-end', poolEnd };
  if (day === dayOf(license.end)) return { kind: 'unchanged' };
  return { kind: 'move' };
}

export interface QuickChoice {
  label: '+30 days' | '+90 days' | 'Pool end';
  day: string;
}

/**
 * +30 and +90 days from the current end (or from today when that is earlier), and the pool end; each
 * only where it is a real change and within the pool. Duplicates collapse into the first.
 */
export function quickChoices(license: Pick<License, 'end'>, pool: Pick<Pool, 'end'>, now: Date): QuickChoice[] {
  const current = dayOf(license.end);
  const from = current !== '' && current > today(now) ? current : today(now);
  const poolEnd = dayOf(pool.end);
  const candidates: QuickChoice[] = [
    { label: '+30 days', day: addDays(from, 30) },
    { label: '+90 days', day: addDays(from, 90) },
    { label: 'Pool end', day: poolEnd },
  ];
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const ok = c.day !== '' && c.day !== current && (poolEnd === '' || c.day <= poolEnd) && !seen.has(c.day);
    seen.add(c.day);
    return ok;
  });
}
