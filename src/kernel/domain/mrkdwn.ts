/**
 * Escaping for Slack mrkdwn (docs/platform.md section 5.1), shared by the Block Kit builders and the
 * audit trail's channel message: every string from the API or a user goes through escapeMrkdwn, so a
 * student named `<!channel>` pings nobody.
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
