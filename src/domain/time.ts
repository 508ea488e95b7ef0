/** One calendar day in milliseconds (License Desk's day arithmetic is in UTC; docs/design.md). */
export const DAY_MS = 86_400_000;
