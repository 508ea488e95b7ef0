/**
 * HTTP statuses and transport failures -> the error hierarchy in errors.ts (design.md section 3).
 * Nothing here ever sees the token; server text is still passed through `redact` in case a server
 * echoes it back.
 */
import {
  BadRequestError,
  ConnectionError,
  ForbiddenError,
  type LicensingError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from './errors.js';

export interface ErrorContext {
  /** Method and path template, e.g. `POST /v1/pool/{id}/license`. */
  endpoint: string;
  /** POST, PATCH, DELETE: a failure after sending leaves the outcome unknown. */
  write: boolean;
  /** Removes this secret from any server-provided text. */
  secret?: string;
}

const GENERIC_REFUSAL = 'the licensing service refused the request';
const MAX_MESSAGE = 500;

export function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

/**
 * The server's human-readable reason for a 4xx. The sandbox sends `{ message, code }`; other servers
 * use `error` (string or object), `title`/`detail` (RFC 9457) or plain text. HTML pages are not shown.
 */
export function serverMessageOf(body: string, secret?: string): string {
  const text = body.trim();
  let message: string | undefined;
  if (text.startsWith('{') || text.startsWith('"')) {
    try {
      message = pickMessage(JSON.parse(text));
    } catch {
      message = undefined;
    }
  } else if (text !== '' && !text.startsWith('<')) {
    message = text;
  }
  const clean = message?.replace(/\s+/g, ' ').trim();
  if (!clean) return GENERIC_REFUSAL;
  const cut = clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE - 1)}…` : clean;
  return redact(cut, secret);
}

function pickMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['message', 'error', 'title', 'detail', 'error_description']) {
    const found = record[key];
    if (typeof found === 'string' && found.trim() !== '') {
      // RFC 9457: `title` is generic, `detail` specific; show both when both exist.
      if (key === 'title' && typeof record.detail === 'string') return `${found}: ${record.detail}`;
      return found;
    }
    if (key === 'error' && typeof found === 'object' && found !== null) {
      const nested = pickMessage(found);
      if (nested) return nested;
    }
  }
  return undefined;
}

/** A non-2xx answer. 429 is built by the caller, which knows the retry delay. */
export function errorFromStatus(status: number, body: string, ctx: ErrorContext): LicensingError {
  const { endpoint } = ctx;
  if (status === 401) return new UnauthorizedError({ endpoint });
  if (status === 403) return new ForbiddenError({ endpoint });
  if (status === 404) return new NotFoundError({ endpoint });
  if (status === 429) return new RateLimitedError(60, { endpoint });
  // A 5xx on a write may have been applied before the server failed: read back, never resend.
  if (status >= 500) return new ServerError({ endpoint, status, outcomeUnknown: ctx.write });
  // 400 and every other refusal (409, 422, ...): the spec leaves business-rule statuses unshown.
  return new BadRequestError(serverMessageOf(body, ctx.secret), { endpoint, status });
}

/** Error codes that prove the request never left this machine, so even a write is known not applied. */
const NOT_SENT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export type TimeoutPhase = 'connect' | 'headers' | 'body';

/**
 * A transport failure. `deadlinePhase` is set when our own overall deadline fired (the request was
 * aborted by us); otherwise undici's error codes tell the phase.
 */
export function errorFromTransport(
  error: unknown,
  ctx: ErrorContext,
  deadlinePhase?: TimeoutPhase,
): TimeoutError | ConnectionError {
  const codes = codesOf(error);
  const notSent = codes.some((code) => NOT_SENT_CODES.has(code));
  const init = { endpoint: ctx.endpoint, outcomeUnknown: ctx.write && !notSent, cause: error };
  if (deadlinePhase) return new TimeoutError(deadlinePhase, init);
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT')) return new TimeoutError('connect', init);
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT')) return new TimeoutError('headers', init);
  if (codes.includes('UND_ERR_BODY_TIMEOUT')) return new TimeoutError('body', init);
  return new ConnectionError(describe(codes), init);
}

function describe(codes: string[]): string {
  const code = codes.find((c) => !c.startsWith('UND_ERR')) ?? codes[0];
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return code ?? 'network error';
}
