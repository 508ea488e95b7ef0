/**
 * One error hierarchy for every licensing API failure (design.md section 3). Messages never contain
 * the API token; `endpoint` is the method and path template, e.g. `GET /v1/pool/{id}`.
 */

export type LicensingErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'invalid-response'
  | 'queue-full'
  | 'stopped'
  | 'budget-unavailable';

export interface LicensingErrorInit {
  endpoint: string;
  status?: number;
  /** For writes: the request may have been applied although no answer came (5xx, reset, timeout). */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

export abstract class LicensingError extends Error {
  abstract readonly kind: LicensingErrorKind;
  readonly endpoint: string;
  readonly status: number | undefined;
  readonly outcomeUnknown: boolean;

  constructor(message: string, init: LicensingErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }
}

/** 400: the server refused the request; `serverMessage` is its human-readable reason, kept for display. */
export class BadRequestError extends LicensingError {
  readonly kind = 'bad-request' as const;
  readonly serverMessage: string;
  constructor(serverMessage: string, init: LicensingErrorInit) {
    super(`${init.endpoint} was refused: ${serverMessage}`, { ...init, status: init.status ?? 400 });
    this.serverMessage = serverMessage;
  }
}

export class UnauthorizedError extends LicensingError {
  readonly kind = 'unauthorized' as const;
  constructor(init: LicensingErrorInit) {
    super(`${init.endpoint}: the API token is missing or no longer valid (401)`, { ...init, status: 401 });
  }
}

export class ForbiddenError extends LicensingError {
  readonly kind = 'forbidden' as const;
  constructor(init: LicensingErrorInit) {
    super(`${init.endpoint}: the API token lacks permission for this operation (403)`, { ...init, status: 403 });
  }
}

export class NotFoundError extends LicensingError {
  readonly kind = 'not-found' as const;
  constructor(init: LicensingErrorInit) {
    super(`${init.endpoint}: no such resource (404)`, { ...init, status: 404 });
  }
}

export class RateLimitedError extends LicensingError {
  readonly kind = 'rate-limited' as const;
  /** Seconds to wait, from Retry-After or the client's own estimate. */
  readonly retryAfterSec: number;
  constructor(retryAfterSec: number, init: LicensingErrorInit) {
    super(`${init.endpoint}: rate limit exceeded (429); try again in about ${retryAfterSec} s`, {
      ...init,
      status: 429,
    });
    this.retryAfterSec = retryAfterSec;
  }
}

export class ServerError extends LicensingError {
  readonly kind = 'server' as const;
  constructor(init: LicensingErrorInit) {
    super(`${init.endpoint}: the licensing service failed (${init.status ?? 500})`, init);
  }
}

export class TimeoutError extends LicensingError {
  readonly kind = 'timeout' as const;
  constructor(phase: 'connect' | 'headers' | 'body', init: LicensingErrorInit) {
    super(`${init.endpoint}: no answer from the licensing service (${phase} timeout)`, init);
  }
}

export class ConnectionError extends LicensingError {
  readonly kind = 'connection' as const;
  constructor(detail: string, init: LicensingErrorInit) {
    super(`${init.endpoint}: could not reach the licensing service (${detail})`, init);
  }
}

/** The answer was not JSON, or broke the schema; `field` names the offending path. */
export class InvalidResponseError extends LicensingError {
  readonly kind = 'invalid-response' as const;
  readonly field: string | undefined;
  constructor(detail: string, init: LicensingErrorInit & { field?: string }) {
    super(`${init.endpoint}: invalid response${init.field ? ` at ${init.field}` : ''}: ${detail}`, init);
    this.field = init.field;
  }
}

/** The limiter's queue is full: the caller should try again in about `retryInSec` seconds. */
export class QueueFullError extends LicensingError {
  readonly kind = 'queue-full' as const;
  readonly retryInSec: number;
  constructor(retryInSec: number, init: LicensingErrorInit) {
    super(`the licensing service is busy; try again in about ${retryInSec} s`, init);
    this.retryInSec = retryInSec;
  }
}

/**
 * The client was closed (License Desk is stopping) before this request got its answer: a queued
 * request was never sent; one in flight was cut off, so for a write `outcomeUnknown` is set.
 */
export class StoppedError extends LicensingError {
  readonly kind = 'stopped' as const;
  constructor(init: LicensingErrorInit) {
    super(
      `${init.endpoint}: License Desk is stopping; ${init.outcomeUnknown ? 'stopped waiting for the answer' : 'not sent'}`,
      init,
    );
  }
}

/**
 * The shared rate budget (Redis, REDIS_URL) cannot be reached, so the request was not sent: nothing
 * was read or changed. `detail` is the connection error, never the Redis URL (it may hold a password).
 */
export class RateBudgetUnavailableError extends LicensingError {
  readonly kind = 'budget-unavailable' as const;
  constructor(detail: string, init: LicensingErrorInit) {
    super(`the shared rate budget in Redis cannot be reached (${detail}); the request was not sent`, init);
  }
}

export function isLicensingError(error: unknown): error is LicensingError {
  return error instanceof LicensingError;
}

const ENDPOINT_MISSING = new Set([405, 501]);
/** GET /v1/student is missing on this deployment (405 or 501); a 404 there means "no such student". */
export function isEndpointMissing(error: LicensingError): boolean {
  return error.status !== undefined && ENDPOINT_MISSING.has(error.status);
}
