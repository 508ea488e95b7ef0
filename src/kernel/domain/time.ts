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
