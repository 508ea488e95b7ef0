import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  InvalidResponseError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../../../src/kernel/licensing/errors.js';
import {
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  planRetry,
  type RetryPolicy,
} from '../../../src/kernel/licensing/retry.js';

const policy: RetryPolicy = { attempts: 3, baseDelayMs: 1_000, maxDelayMs: 8_000 };
const endpoint = 'GET /v1/pools';

describe('retry policy', () => {
  it('retries reads on 429, 5xx, timeouts and connection failures, not on 4xx or bad payloads', () => {
    expect(isRetryable('GET', new RateLimitedError(1, { endpoint }))).toBe(true);
    expect(isRetryable('GET', new ServerError({ endpoint, status: 503 }))).toBe(true);
    expect(isRetryable('GET', new TimeoutError('headers', { endpoint }))).toBe(true);
    expect(isRetryable('GET', new ConnectionError('connection reset', { endpoint }))).toBe(true);
    expect(isRetryable('GET', new BadRequestError('no', { endpoint }))).toBe(false);
    expect(isRetryable('GET', new InvalidResponseError('x', { endpoint }))).toBe(false);
  });

  it('retries writes on 429 only', () => {
    for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
      expect(isRetryable(method, new RateLimitedError(1, { endpoint }))).toBe(true);
      expect(isRetryable(method, new ServerError({ endpoint, status: 500 }))).toBe(false);
      expect(isRetryable(method, new TimeoutError('headers', { endpoint }))).toBe(false);
      expect(isRetryable(method, new ConnectionError('connection reset', { endpoint }))).toBe(false);
    }
  });

  it('doubles the backoff step per attempt, half fixed and half jitter, capped', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(500);
    expect(backoffDelay(1, policy, () => 1)).toBe(1_000);
    expect(backoffDelay(2, policy, () => 0)).toBe(1_000);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(3_000);
    expect(backoffDelay(10, policy, () => 1)).toBe(8_000);
    expect(backoffDelay(10, policy, () => 0)).toBe(4_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2024-04-17T15:23:08Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(['2'], now)).toBe(2_000);
    expect(parseRetryAfter('Wed, 17 Apr 2024 15:23:18 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 17 Apr 2024 15:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('plans: Retry-After wins over backoff, attempts are counted, huge Retry-After gives up', () => {
    const error = new RateLimitedError(1, { endpoint });
    expect(planRetry({ method: 'POST', error, attempt: 1, retryAfterMs: 2_000, policy })).toEqual({
      retry: true,
      delayMs: 2_000,
    });
    expect(planRetry({ method: 'GET', error, attempt: 2, policy, random: () => 0 })).toEqual({
      retry: true,
      delayMs: 1_000,
    });
    expect(planRetry({ method: 'GET', error, attempt: 3, policy, random: () => 0 }).retry).toBe(false);
    const late = planRetry({ method: 'GET', error, attempt: 1, retryAfterMs: 3_600_000, policy });
    expect(late).toEqual({ retry: false, delayMs: 3_600_000 });
    const server = new ServerError({ endpoint, status: 500, outcomeUnknown: true });
    expect(planRetry({ method: 'POST', error: server, attempt: 1, policy }).retry).toBe(false);
  });

  it('a 429 without Retry-After gets the plain backoff (the default limiter replaces it with its own pause)', () => {
    const error = new RateLimitedError(1, { endpoint });
    expect(planRetry({ method: 'POST', error, attempt: 1, policy, random: () => 0 })).toEqual({
      retry: true,
      delayMs: 500,
    });
    expect(planRetry({ method: 'GET', error, attempt: 1, retryAfterMs: 300, policy }).delayMs).toBe(300);
  });
});
