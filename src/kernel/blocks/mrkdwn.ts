/**
 * Text helpers for mrkdwn (docs/platform.md section 5.1). Every string that came from the
 * API or from a user goes through escapeMrkdwn, so a student named `<!channel>` pings nobody.
 */

import { dayText } from '../domain/end-date.js';
import { escapeTruncated } from '../domain/mrkdwn.js';

export { dayText } from '../domain/end-date.js';
export { escapeMrkdwn, escapeTruncated, truncate } from '../domain/mrkdwn.js';

/**
 * A moment (when something happened), in the reader's time zone: `Nov 25, 2026 at 16:28`, its date in
 * the same style as dayText's calendar days; the fallback is the same in UTC.
 */
export function slackMoment(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return escapeTruncated(iso, 40);
  const fallback = `${dayText(iso)} at ${new Date(at).toISOString().slice(11, 16)} UTC`;
  return `<!date^${Math.floor(at / 1000)}^{date_short} at {time}|${fallback}>`;
}

/**
 * A recent moment as App Home's "Updated" reads it: "today at 9:48 AM", "yesterday at 9:48 AM", else
 * like `slackMoment` ("Nov 25, 2026 at 9:48 AM"), in the reader's time zone.
 */
export function slackMomentPretty(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return escapeTruncated(iso, 40);
  const fallback = `${dayText(iso)} at ${new Date(at).toISOString().slice(11, 16)} UTC`;
  return `<!date^${Math.floor(at / 1000)}^{date_short_pretty} at {time}|${fallback}>`;
}

/** A ten-cell bar of used seats: `▰▰▰▰▰▰▱▱▱▱`. Full cells round up so a nearly full pool never looks empty. */
export function availabilityBar(used: number, total: number, width = 10): string {
  if (total <= 0) return '▱'.repeat(width);
  const ratio = Math.min(1, Math.max(0, used / total));
  const filled = used > 0 ? Math.max(1, Math.round(ratio * width)) : 0;
  return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}
