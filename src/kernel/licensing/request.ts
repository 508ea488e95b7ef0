/**
 * The one request core (design.md section 3): every call goes through `request()`, which paces it with
 * the limiter, sends it with undici under explicit timeouts, always consumes the body, maps failures
 * to the error hierarchy, retries per retry.ts and validates the payload with zod.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type Dispatcher, request as undiciRequest } from 'undici';
import type * as z from 'zod';
import { errorFromStatus, errorFromTransport, type TimeoutPhase } from './error-mapping.js';
import { InvalidResponseError, LicensingError, RateLimitedError } from './errors.js';
import type { Priority, RateLimiter } from './limiter.js';
import { type HttpMethod, isRead, parseRetryAfter, planRetry, type RetryPolicy } from './retry.js';
import { parsePayload } from './schemas.js';
import type { CallOptions, Logger } from './types.js';

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000 };

/**
 * The longest one attempt can take. undici's own timers tick coarsely (about 1 s; they are tuned for
 * long timeouts), its bodyTimeout is an idle timeout between chunks, and an injected dispatcher may
 * have no connect timeout: so the core also keeps its own deadlines, connect + headers until the
 * response head arrives, then body for the whole body.
 */
export function requestDeadlineMs(timeouts: Timeouts): number {
  return timeouts.connectMs + timeouts.headersMs + timeouts.bodyMs;
}

export interface CoreConfig {
  /** Without /v1, e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  token: string;
  dispatcher: Dispatcher;
  timeouts: Timeouts;
  limiter: RateLimiter;
  retry: RetryPolicy;
  logger?: Logger | undefined;
  /** Called on every answer that carries `x-licensing-sandbox: 1`: the service is a sandbox. */
  onSandboxAnswer?: (() => void) | undefined;
}

/** The header a licensing sandbox sends on every answer (docs/licensing-api.md). */
export const SANDBOX_HEADER = 'x-licensing-sandbox';

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Path template, e.g. `/v1/pool/{id}`: what errors and logs show (never ids, e-mails or the token). */
  template: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
}

export type Requester = <T>(spec: RequestSpec<T>, opts?: CallOptions) => Promise<T>;

interface RawResponse {
  status: number;
  retryAfter: string | string[] | undefined;
  text: string;
}

export function buildPath(spec: Pick<RequestSpec<unknown>, 'template' | 'params' | 'query'>): string {
  const path = spec.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = spec.params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${spec.template}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(spec.query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs === '' ? path : `${path}?${qs}`;
}

export function createRequester(config: CoreConfig): Requester {
  const base = config.baseUrl.replace(/\/+$/, '');
  return async function request<T>(spec: RequestSpec<T>, opts?: CallOptions): Promise<T> {
    const endpoint = `${spec.method} ${spec.template}`;
    const priority = opts?.priority ?? 'interactive';
    // 429s are counted apart: with a limiter policy they cost short pauses and get their own budget.
    const tally = { failures: 0, limited: 0 };
    for (let attempt = 1; ; attempt++) {
      const sent = await paced(config.limiter, priority, () => send(config, base, spec, endpoint));
      const answer = answerOf(config, spec, endpoint, sent, attempt);
      if (answer.ok) return answer.value;
      const waitMs = retryDelay(config, { ...answer, method: spec.method, endpoint, priority, attempt, tally, sent });
      if (waitMs > 0) await delay(waitMs);
    }
  };
}

/** One attempt as the limiter saw it: what came back, how long it took and waited, when it was sent. */
interface Sent {
  outcome: RawResponse | LicensingError;
  ms: number;
  waitedMs: number;
  /** Wall clock, as the limiter counts sends. */
  sentWall: number;
}

async function paced(
  limiter: RateLimiter,
  priority: Priority,
  sendNow: () => Promise<RawResponse | LicensingError>,
): Promise<Sent> {
  const queuedAt = performance.now();
  let sentAt = queuedAt;
  let sentWall = Date.now();
  // Each attempt is its own limiter job (ratelimit.md, "429s and a limit that changes"): a retry
  // inside the same job would bypass the limiter.
  const outcome = await limiter.schedule(priority, () => {
    sentAt = performance.now();
    sentWall = Date.now();
    return sendNow();
  });
  return { outcome, ms: Math.round(performance.now() - sentAt), waitedMs: Math.round(sentAt - queuedAt), sentWall };
}

async function send(
  config: CoreConfig,
  base: string,
  spec: RequestSpec<unknown>,
  endpoint: string,
): Promise<RawResponse | LicensingError> {
  const { timeouts } = config;
  const ctx = { endpoint, write: !isRead(spec.method), secret: config.token };
  const controller = new AbortController();
  let phase: TimeoutPhase = 'headers';
  let timedOut = false;
  const expire = () => {
    timedOut = true;
    controller.abort();
  };
  let timer = setTimeout(expire, timeouts.connectMs + timeouts.headersMs);
  const headers: Record<string, string> = {
    authorization: `Bearer ${config.token}`,
    accept: 'application/json',
  };
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await undiciRequest(`${base}${buildPath(spec)}`, {
      dispatcher: config.dispatcher,
      method: spec.method,
      headers,
      body: spec.body === undefined ? null : JSON.stringify(spec.body),
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      signal: controller.signal,
    });
    phase = 'body';
    clearTimeout(timer);
    timer = setTimeout(expire, timeouts.bodyMs);
    // Always consume the body, whatever the status, so the connection goes back to the pool.
    const text = await res.body.text();
    if (res.headers[SANDBOX_HEADER] === '1') config.onSandboxAnswer?.();
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], text };
  } catch (error) {
    return errorFromTransport(error, ctx, timedOut ? phase : undefined);
  } finally {
    clearTimeout(timer);
  }
}

type Answer<T> = { ok: true; value: T } | { ok: false; error: LicensingError; retryAfterMs: number | undefined };

/** Logs the attempt, tells the limiter a send that was no 429, and decodes a 2xx or names the failure. */
function answerOf<T>(
  config: CoreConfig,
  spec: RequestSpec<T>,
  endpoint: string,
  sent: Sent,
  attempt: number,
): Answer<T> {
  const { outcome, ms, waitedMs } = sent;
  if (outcome instanceof LicensingError) {
    config.logger?.debug('licensing request failed', {
      method: spec.method,
      endpoint: spec.template,
      kind: outcome.kind,
      ms,
      waitedMs,
      attempt,
    });
    return { ok: false, error: outcome, retryAfterMs: undefined };
  }
  config.logger?.debug('licensing request', {
    method: spec.method,
    endpoint: spec.template,
    status: outcome.status,
    ms,
    waitedMs,
    attempt,
  });
  if (outcome.status !== 429) config.limiter.onSuccess(sent.sentWall);
  if (outcome.status >= 200 && outcome.status < 300) return { ok: true, value: decode(spec, outcome, endpoint) };
  const retryAfterMs = parseRetryAfter(outcome.retryAfter, Date.now());
  const error = errorFromStatus(outcome.status, outcome.text, {
    endpoint,
    write: !isRead(spec.method),
    secret: config.token,
  });
  return { ok: false, error, retryAfterMs };
}

function decode<T>(spec: RequestSpec<T>, raw: RawResponse, endpoint: string): T {
  // A 2xx to a write means it was applied; if its answer is unreadable the caller must read back.
  const write = !isRead(spec.method);
  let payload: unknown;
  if (raw.text.trim() !== '') {
    try {
      payload = JSON.parse(raw.text);
    } catch {
      // Never quote the body: it may hold student data.
      throw new InvalidResponseError('the answer is not JSON', { endpoint, outcomeUnknown: write });
    }
  }
  return parsePayload(spec.schema, payload, endpoint, write);
}

/**
 * After a failed attempt: counts it, lets the limiter price a 429, and returns how long to wait before
 * the next one; throws the error when there is none.
 */
function retryDelay(
  config: CoreConfig,
  t: {
    error: LicensingError;
    retryAfterMs: number | undefined;
    method: HttpMethod;
    endpoint: string;
    priority: Priority;
    attempt: number;
    tally: { failures: number; limited: number };
    sent: Sent;
  },
): number {
  const { limiter, logger } = config;
  let { error } = t;
  const rateLimited = error.kind === 'rate-limited';
  // The limiter decides what a 429 costs (a short pause, then one probe) and logs that decision once.
  const pauseMs = rateLimited
    ? limiter.onRateLimited({ sentAt: t.sent.sentWall, retryAfterMs: t.retryAfterMs })
    : undefined;
  if (rateLimited) t.tally.limited++;
  else t.tally.failures++;
  const held = pauseMs !== undefined;
  const decision = planRetry({
    method: t.method,
    error,
    attempt: held ? t.tally.limited : t.tally.failures + t.tally.limited,
    retryAfterMs: t.retryAfterMs,
    policy: held
      ? { ...config.retry, attempts: config.retry.rateLimitedAttempts ?? config.retry.attempts }
      : config.retry,
  });
  if (rateLimited) {
    const retryInMs = Math.max(pauseMs ?? decision.delayMs, limiter.estimateWaitMs(t.priority));
    error = new RateLimitedError(Math.max(1, Math.ceil(retryInMs / 1_000)), { endpoint: t.endpoint });
  }
  if (!decision.retry) throw error;
  const fields = {
    endpoint: t.endpoint,
    reason: error.status ?? error.kind,
    attempt: t.attempt,
    delayMs: pauseMs ?? decision.delayMs,
  };
  if (rateLimited) logger?.debug('licensing retry', fields);
  else logger?.warn('licensing retry', fields);
  // A limiter with a 429 policy holds the retry back itself: it is resubmitted at once and waits there.
  return held ? 0 : decision.delayMs;
}
