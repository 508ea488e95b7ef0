/**
 * Why a person waits: the licensing API allows so many requests a window (25 a minute), and the limiter
 * knows how long until the next one may go (`estimateWaitMs`). Shown in the first "working" message or
 * loading view, so a wait of a minute is never a silent "Reading the license…". Pure words.
 */

export interface LimitWait {
  /** The limiter's estimate for an interactive request sent now. */
  waitMs: number;
  /** The configured limit and its window: 25 and 60_000 in production. */
  limit: number;
  windowMs: number;
}

/** Below this a wait is not worth a sentence (one request's round trip is of that order). */
export const LIMIT_WAIT_SHOWN_MS = 2_000;

function perWindow(windowMs: number): string {
  if (windowMs === 60_000) return 'a minute';
  if (windowMs % 60_000 === 0) return `every ${windowMs / 60_000} minutes`;
  const seconds = Math.round(windowMs / 1000);
  return seconds === 1 ? 'a second' : `every ${seconds} seconds`;
}

/** "about 40 seconds", "about a minute", "about 3 minutes": whole seconds up to 10, then by fives. */
export function aboutDuration(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 10) return `about ${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 58) return `about ${Math.round(seconds / 5) * 5} seconds`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? 'about a minute' : `about ${minutes} minutes`;
}

/** "Waiting for the licensing API's limit of 25 requests a minute: about 40 seconds." (plain text) */
export function limitWaitText(wait: LimitWait): string {
  return `Waiting for the licensing API's limit of ${wait.limit} requests ${perWindow(wait.windowMs)}: ${aboutDuration(wait.waitMs)}.`;
}
