/** One calendar day in milliseconds (License Desk's day arithmetic is in UTC; docs/design.md). */
export const DAY_MS = 86_400_000;

/**
 * The one rule for a day count to (or since) a date, "in N days" everywhere (docs/commands.md, section 3):
 * whole UTC calendar days from today to the day of `iso`. 0 today, 1 tomorrow, -1 yesterday, whatever the
 * time of day on either side: a license ending May 7 at 23:59 UTC is "in 3 days" all of May 4. Undefined
 * when `iso` cannot be read.
 */
export function calendarDaysUntil(iso: string, now: Date): number | undefined {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return undefined;
  return Math.floor(at / DAY_MS) - Math.floor(now.getTime() / DAY_MS);
}

/**
 * The first moment after the UTC calendar day `days` days after `now`'s: a date before it is at most
 * `days` calendar days away ("within 7 days" by `calendarDaysUntil`), for scans that compare numbers.
 */
export function endOfDaysAhead(now: Date, days: number): number {
  return (Math.floor(now.getTime() / DAY_MS) + days + 1) * DAY_MS;
}

/** The wall clock of `at` in `timeZone` (an IANA zone), field by field: month 1–12, hour 0–23. */
export function wallClock(
  at: Date,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}
