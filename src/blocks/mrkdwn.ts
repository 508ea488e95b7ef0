/**
 * Text helpers for mrkdwn (docs/platform.md section 5.1). Every string that came from the
 * API or from a user goes through escapeMrkdwn, so a student named `<!channel>` pings nobody.
 */

/** Slack's control characters are only `&`, `<` and `>`; nothing else may be HTML-encoded. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts to at most `max` characters (code points, so no emoji is split), ending with "…" when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Truncates the raw text first, then escapes: escaping after cutting never leaves half an `&amp;`. */
export function escapeTruncated(text: string, max: number): string {
  return escapeMrkdwn(truncate(text, max));
}

/** `2027-01-01T00:00:00+00:00` → `2027-01-01` (UTC), or '' when unparsable. */
export function isoDay(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : new Date(at).toISOString().slice(0, 10);
}

/**
 * Slack date formatting: every reader sees the date in their own time zone; the fallback (required)
 * is shown where rendering fails. An unparsable date is shown as escaped text instead.
 */
export function slackDate(iso: string, token = '{date_short}', fallback?: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return escapeTruncated(iso, 40);
  const shown = escapeMrkdwn(fallback ?? isoDay(iso));
  return `<!date^${Math.floor(at / 1000)}^${token}|${shown}>`;
}

/** A ten-cell bar of used seats: `▰▰▰▰▰▰▱▱▱▱`. Full cells round up so a nearly full pool never looks empty. */
export function availabilityBar(used: number, total: number, width = 10): string {
  if (total <= 0) return '▱'.repeat(width);
  const ratio = Math.min(1, Math.max(0, used / total));
  const filled = used > 0 ? Math.max(1, Math.round(ratio * width)) : 0;
  return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}
