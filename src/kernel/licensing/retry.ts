/**
 * The retry policy, pure (design.md section 3). Reads are retried on 429, 5xx,
 * timeouts and connection failures; writes only on 429, because a 429 means the write was not
 * applied, while after a 5xx, a reset or a timeout it may have been (a resent assign with `recycle`
 * would free a second seat).
 */
import type { LicensingError } from './errors.js';

export interface RetryPolicy {
  /** Total attempts, the first included. */
  attempts: number;
  /**
   * Total attempts while the answer is 429, when the limiter holds each retry back with its own
   * escalating pause (1/20 of a window, doubling, capped at a window). Six attempts wait about 1.5
   * windows in all, enough for a window someone else filled (a predecessor's sends) to pass, so a
   * person's request is answered rather than lost to short pauses.
   */
  rateLimitedAttempts?: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  rateLimitedAttempts: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
};

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export function isRead(method: HttpMethod): boolean {
  return method === 'GET';
}

/** Whether this failure may be retried at all for this method, ignoring the attempt count. */
export function isRetryable(method: HttpMethod, error: LicensingError): boolean {
  if (error.kind === 'rate-limited') return true;
  if (!isRead(method)) return false;
  return error.kind === 'server' || error.kind === 'timeout' || error.kind === 'connection';
}

/**
 * Exponential backoff with "equal jitter": half the step fixed, half random, so retries from
 * several callers spread out but never come back sooner than half the step. `attempt` is the
 * attempt that just failed, 1-based.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Retry-After as delta-seconds or an HTTP date (RFC 9110 section 10.2.3), in ms from `nowMs`;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1_000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export interface RetryDecision {
  retry: boolean;
  /**
   * How long to wait before the next attempt. For a 429 the default limiter's own policy
   * (limiter-backoff.ts) replaces it: it holds the retry back itself.
   */
  delayMs: number;
}

export interface RetryInput {
  method: HttpMethod;
  error: LicensingError;
  /** The attempt that just failed, 1-based. */
  attempt: number;
  retryAfterMs?: number | undefined;
  policy: RetryPolicy;
  random?: () => number;
}

export function planRetry(input: RetryInput): RetryDecision {
  const { method, error, attempt, retryAfterMs, policy } = input;
  const delayMs = retryAfterMs ?? backoffDelay(attempt, policy, input.random);
  if (!isRetryable(method, error) || attempt >= policy.attempts) return { retry: false, delayMs };
  // A server asking for longer than we would ever wait: give up now and say when to try again.
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) return { retry: false, delayMs };
  return { retry: true, delayMs };
}
