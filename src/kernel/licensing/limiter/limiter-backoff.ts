/**
 * What a 429 costs (docs/rate-limiting.md, "429s"): one short pause and a probe, not a window for
 * everyone. Pure state with an injected clock and random source, so it is tested without timers.
 *
 * - A fresh 429 while requests flow: pause for Retry-After when the server sent one, else `firstPauseMs`
 *   (a twentieth of the window: 3 s of a minute). Then the gate is "probing": one request at a time.
 * - A request sent after that decision comes back without a 429: the episode is over, full pace again.
 * - The probe draws a 429 too: the 429s repeat, so the next pause doubles (capped at one window, a
 *   little jitter so that processes sharing a token spread out).
 * - From the third fresh 429 within three windows (in a row, or one per window at full load), and only
 *   if our own sends in the window stayed under our limit, the server's limit must be lower than ours:
 *   the caller lowers it (limiter-adaptive.ts).
 * - A 429 for a request sent before the latest decision belongs to that decision (a burst that was
 *   already on its way): it costs no new pause and does not escalate.
 */

export type Gate = { state: 'open' } | { state: 'paused'; untilMs: number } | { state: 'probing' };

export interface RateLimitedInput {
  /** When the refused request was sent (same clock as `now`). */
  sentAt: number;
  retryAfterMs?: number | undefined;
  /** Our own sends in the window before the refused request (this process, plus a predecessor's). */
  ownSendsInWindow: number;
  /** The limit in force. */
  limit: number;
}

export interface BackoffDecision {
  /** false: the 429 belongs to a decision already made; nothing changes. */
  fresh: boolean;
  /** 429s in a row in this episode (1 for a single 429); 0 when not fresh. */
  level: number;
  /** Fresh 429s within the last LOWER_WITHIN_WINDOWS windows, this one included; 0 when not fresh. */
  recent: number;
  /** From now until the gate lets the next probe through. */
  pauseMs: number;
  /** The 429s repeat although we kept under our own limit: lower it. */
  lower: boolean;
}

export interface BackoffPolicy {
  gate(): Gate;
  onRateLimited(input: RateLimitedInput): BackoffDecision;
  /** A request came back without a 429. Returns true when that ended an episode (the gate opened). */
  onSuccess(sentAt: number): boolean;
  /** 429s in a row in the current episode; 0 when requests flow. */
  level(): number;
}

export interface BackoffOptions {
  windowMs: number;
  /** The pause after a single 429 without Retry-After; default windowMs / 20. */
  firstPauseMs?: number | undefined;
  now: () => number;
  random?: () => number;
}

/** From this many fresh 429s within LOWER_WITHIN_WINDOWS windows, the limit may be lowered. */
export const LOWER_FROM_COUNT = 3;
export const LOWER_WITHIN_WINDOWS = 3;

export function defaultFirstPauseMs(windowMs: number): number {
  return Math.max(1, Math.round(windowMs / 20));
}

export function createBackoffPolicy(opts: BackoffOptions): BackoffPolicy {
  const { windowMs, now } = opts;
  const random = opts.random ?? Math.random;
  const firstPauseMs = opts.firstPauseMs ?? defaultFirstPauseMs(windowMs);
  let level = 0;
  let pausedUntil = Number.NEGATIVE_INFINITY;
  /** When the latest pause was decided: requests sent before it are already accounted for. */
  let decidedAt = Number.NEGATIVE_INFINITY;
  /** When the fresh 429s of the last LOWER_WITHIN_WINDOWS windows were decided. */
  let freshAt: number[] = [];

  const pauseFor = (atLevel: number, retryAfterMs: number | undefined): number => {
    if (retryAfterMs !== undefined) return Math.max(0, retryAfterMs);
    if (atLevel <= 1) return firstPauseMs;
    const step = Math.min(windowMs, firstPauseMs * 2 ** (atLevel - 1));
    return Math.round(step + random() * (step / 4));
  };

  return {
    gate() {
      const at = now();
      if (at < pausedUntil) return { state: 'paused', untilMs: pausedUntil };
      return level > 0 ? { state: 'probing' } : { state: 'open' };
    },

    onRateLimited(input) {
      const at = now();
      if (input.sentAt < decidedAt) {
        return { fresh: false, level: 0, recent: 0, pauseMs: Math.max(0, pausedUntil - at), lower: false };
      }
      level += 1;
      const pauseMs = pauseFor(level, input.retryAfterMs);
      decidedAt = at;
      pausedUntil = at + pauseMs;
      freshAt = freshAt.filter((t) => t > at - LOWER_WITHIN_WINDOWS * windowMs);
      freshAt.push(at);
      const recent = freshAt.length;
      const lower = recent >= LOWER_FROM_COUNT && input.ownSendsInWindow < input.limit;
      return { fresh: true, level, recent, pauseMs, lower };
    },

    onSuccess(sentAt) {
      if (level === 0 || sentAt < decidedAt) return false;
      level = 0;
      pausedUntil = Number.NEGATIVE_INFINITY;
      return true;
    },

    level: () => level,
  };
}
