/**
 * Bolt's HTTPReceiver with a guard in front of its request listener, for HTTP mode and the local demo
 * (Socket Mode has no inbound HTTP body). Bolt reads every POST body whole (up to 4 MB) before it
 * checks the signature, with no bound on how many at once, checks only the past side of the request
 * timestamp, and dereferences whatever JSON a signed body holds. The guard, for POST /slack/events:
 *
 *  1. refuses a timestamp more than 5 minutes from this server's clock, in either direction (401),
 *     from the header alone, before reading the body;
 *  2. refuses a declared Content-Length over MAX_BODY_BYTES (413) before reading a byte of it;
 *  3. bounds what is buffered at once, answering 503 with Retry-After at once (no queue) beyond it:
 *     bodies that declare at most SMALL_BODY_BYTES (every command, click and event) share a budget of
 *     bytes, charged as they arrive, so a connection that sends nothing holds nothing; bigger or
 *     undeclared (chunked) bodies take one of a few reading slots, so they cannot starve the small ones;
 *  4. reads the body with a running count and stops at MAX_BODY_BYTES (413);
 *  5. verifies the signature (401), then parses and checks the body's shape (400, inbound-body.ts);
 *  6. hands the buffered request to Bolt, which then skips its own read (it reuses `rawBody`).
 *
 * Everything else (GET /healthz, other paths, Bolt's ack handling) is Bolt's, unchanged. The server
 * gets request and header timeouts that suit Slack (SERVER_TIMEOUTS). docs/http-hardening.md has the
 * figures behind each limit.
 */
import type { IncomingMessage, RequestListener, ServerOptions, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { type Logger as BoltLogger, type CustomRoute, HTTPReceiver, verifySlackRequest } from '@slack/bolt';
import type { Logger } from '../licensing/types.js';
import { FORM_CONTENT_TYPE, parseInboundBody } from './inbound-body.js';

/**
 * The largest body Slack posts is a view_submission (or block_actions) of a large modal: Slack caps a
 * view at 250 kB of JSON, the state it sends back adds what people typed (our largest form, bulk
 * assign, has five 3,000-character boxes), and form encoding can triple the bytes. That is under
 * 1 MB even in the worst case; commands, clicks and events are a few kB.
 */
export const MAX_BODY_BYTES = 1024 * 1024;
/** A body declaring at most this much is "small": every command, click and event, most submissions. */
export const SMALL_BODY_BYTES = 64 * 1024;
/**
 * Unverified body buffered at once: small bodies share SMALL_BODIES_AT_ONCE × SMALL_BODY_BYTES = 4 MB,
 * charged by the bytes that arrived (a count of readers would let 64 idle connections, which send a
 * header and a byte, refuse every command for as long as they hold on); larger bodies take one of
 * LARGE_BODIES_AT_ONCE slots of up to 1 MB. At most 4 MB + 8 MB = 12 MB in the worst case, whatever
 * the number of connections. Beyond either bound: 503.
 */
export const SMALL_BODIES_AT_ONCE = 64;
export const SMALL_BODY_BUDGET_BYTES = SMALL_BODIES_AT_ONCE * SMALL_BODY_BYTES;
export const LARGE_BODIES_AT_ONCE = 8;
/** Seconds a busy answer asks the sender to wait (Slack retries Events API deliveries on its own). */
export const BUSY_RETRY_AFTER_SECONDS = 1;
/** Slack's recipe: refuse a request timestamp more than 5 minutes from now (Bolt checks only the past). */
export const TIMESTAMP_WINDOW_SECONDS = 5 * 60;
/**
 * Slack gives up on a request after 3 s, so a request whose headers or body take longer than 5 s to
 * arrive is one Slack has already abandoned (or not Slack at all). Node's defaults keep such a socket
 * for 60 s (headers) and 300 s (request), checked every 30 s; the check runs every second here. The
 * timeouts end once the request has been received: a slow answer is not cut.
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 5_000,
  requestTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const satisfies ServerOptions;
/** After a refusal, the rest of the body is read and dropped for at most this long (or this much), so
 * the sender sees the answer rather than a reset; then the connection is closed. */
const DISCARD_MS = 1_000;
const DISCARD_BYTES = MAX_BODY_BYTES;
/** Refusals are logged once per reason per minute; the rest are counted into one summary line. */
const REFUSAL_LOG_WINDOW_MS = 60_000;

export interface SlackHttpReceiverOptions {
  signingSecret: string;
  endpoint: string;
  customRoutes: CustomRoute[];
  /** Bolt's own log lines. */
  boltLogger: BoltLogger;
  /** The guard's refusals (warn, summarised). */
  logger: Logger;
}

export function createSlackHttpReceiver(options: SlackHttpReceiverOptions): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: options.endpoint,
    customRoutes: options.customRoutes,
    logger: options.boltLogger,
    // A second line of defence: the guard already stops every body at MAX_BODY_BYTES.
    bodyLimit: MAX_BODY_BYTES,
  });
  receiver.requestListener = guardRequests(receiver.requestListener, options);
  // Bolt creates the server in start(); defaults for the timeouts, which a caller may still override.
  const start = receiver.start.bind(receiver) as (
    listen: Parameters<HTTPReceiver['start']>[0],
    serverOptions?: ServerOptions,
  ) => ReturnType<HTTPReceiver['start']>;
  receiver.start = ((listen: Parameters<HTTPReceiver['start']>[0], serverOptions: ServerOptions = {}) =>
    start(listen, { ...SERVER_TIMEOUTS, ...serverOptions })) as HTTPReceiver['start'];
  return receiver;
}

/** Bytes buffered by small bodies: charged chunk by chunk as they arrive, given back when read. */
class ByteBudget {
  private used = 0;
  constructor(private readonly size: number) {}
  tryCharge(bytes: number): boolean {
    if (this.used + bytes > this.size) return false;
    this.used += bytes;
    return true;
  }
  give(bytes: number): void {
    this.used -= bytes;
  }
}

class Slots {
  private used = 0;
  constructor(private readonly size: number) {}
  tryTake(): boolean {
    if (this.used >= this.size) return false;
    this.used += 1;
    return true;
  }
  give(): void {
    this.used -= 1;
  }
}

type Refusal = 'timestamp' | 'too-large' | 'busy' | 'signature' | 'malformed';

function guardRequests(bolt: RequestListener, options: SlackHttpReceiverOptions): RequestListener {
  // Date.now, as Bolt's own check uses: signatures are about real time, not the app's injectable clock.
  const now = Date.now;
  const pools: Pools = { small: new ByteBudget(SMALL_BODY_BUDGET_BYTES), large: new Slots(LARGE_BODIES_AT_ONCE) };
  const refuse = createRefuser(createRefusalLog(options.logger));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const early = headerRefusal(req, now());
    if (early !== undefined) return refuse(req, res, early);
    const body = await readWithinBounds(req, pools);
    if (body === 'gone') return;
    if (!Buffer.isBuffer(body)) return refuse(req, res, body);
    const late = contentRefusal(req, body.toString(), options.signingSecret, now());
    if (late !== undefined) return refuse(req, res, late);
    // Bolt reuses a buffered body instead of reading the (now consumed) stream again.
    (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
    bolt(req, res);
  };

  return (req, res) => {
    if (!isEventsPost(req, options.endpoint)) {
      bolt(req, res);
      return;
    }
    handle(req, res).catch((error: unknown) => {
      // Bolt's own listener catches what it throws; this is only for the guard itself.
      options.logger.error('could not handle a Slack request', { error });
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
}

/** What the guard answers instead of Bolt, and what its log line says. */
interface RefusalAnswer {
  status: number;
  reason: Refusal;
  text: string;
  fields?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The buffering bounds (3 above): the small bodies' byte budget and the large bodies' reading slots. */
interface Pools {
  small: ByteBudget;
  large: Slots;
}

function createRefuser(logRefusal: (reason: Refusal, fields: Record<string, unknown>) => void) {
  return (req: IncomingMessage, res: ServerResponse, refusal: RefusalAnswer): void => {
    const { status, reason, text } = refusal;
    logRefusal(reason, { status, problem: text, ...refusal.fields });
    discardThenClose(req);
    if (res.headersSent) return;
    // A failed signature gets Bolt's empty 401 (the reason is in the log); the others say what is wrong.
    const body = reason === 'signature' ? '' : text;
    res.writeHead(status, {
      ...(body ? { 'content-type': 'text/plain; charset=utf-8' } : {}),
      'cache-control': 'no-store',
      ...refusal.headers,
    });
    res.end(body);
  };
}

/** From the headers alone (1 and 2 above): a timestamp out of the window, a declared length too large. */
function headerRefusal(req: IncomingMessage, nowMs: number, maxBytes = MAX_BODY_BYTES): RefusalAnswer | undefined {
  const skew = timestampSkew(req.headers['x-slack-request-timestamp'], nowMs);
  if (skew !== undefined) {
    const fields = skew.seconds === undefined ? {} : { skewSeconds: skew.seconds };
    return { status: 401, reason: 'timestamp', text: skew.text, fields };
  }
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxBytes) {
    return { status: 413, reason: 'too-large', text: tooLargeText(maxBytes), fields: { declaredBytes: declared } };
  }
  return undefined;
}

const busy = (pool: 'small' | 'large'): RefusalAnswer => ({
  status: 503,
  reason: 'busy',
  text: `Too many requests are being received at once; retry in ${BUSY_RETRY_AFTER_SECONDS} s.`,
  fields: { pool },
  headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
});

/** Reads the body within the buffering bounds (3 and 4 above); 'gone' when the sender went away. */
async function readWithinBounds(
  req: IncomingMessage,
  pools: Pools,
  maxBytes = MAX_BODY_BYTES,
): Promise<Buffer | 'gone' | RefusalAnswer> {
  const declared = declaredLength(req);
  const isSmall = declared !== undefined && declared <= SMALL_BODY_BYTES;
  if (!isSmall && !pools.large.tryTake()) return busy('large');
  let charged = 0;
  const charge = isSmall
    ? (bytes: number) => {
        if (!pools.small.tryCharge(bytes)) return false;
        charged += bytes;
        return true;
      }
    : () => true;
  let body: Buffer | 'too-large' | 'gone' | 'busy';
  try {
    body = await readBody(req, maxBytes, charge);
  } finally {
    if (isSmall) pools.small.give(charged);
    else pools.large.give();
  }
  if (body === 'busy') return busy('small');
  if (body === 'too-large') {
    return { status: 413, reason: 'too-large', text: tooLargeText(maxBytes), fields: { declaredBytes: 'none' } };
  }
  return body;
}

/** The signature, then the body's shape (5 above). */
function contentRefusal(req: IncomingMessage, text: string, secret: string, nowMs: number): RefusalAnswer | undefined {
  const contentType = req.headers['content-type'];
  // Slack's SSL check is unsigned; Bolt answers it and drops anything else in the body.
  if (contentType === FORM_CONTENT_TYPE && parseQuery(text).ssl_check === '1') return undefined;
  const problem = signatureProblem(req, text, secret, nowMs);
  if (problem !== undefined) return { status: 401, reason: 'signature', text: problem };
  const parsed = parseInboundBody(text, contentType);
  if (!parsed.ok) return { status: 400, reason: 'malformed', text: `Malformed Slack request: ${parsed.problem}.` };
  return undefined;
}

/** What a signed route (createSignedBodyReader) read: the verified body, or the refusal to answer with. */
export type SignedBody =
  | { ok: true; body: string; signed: boolean }
  | { ok: false; status: number; reason: string; text: string; headers?: Record<string, string> }
  | 'gone';

export interface SignedBodyReaderOptions {
  signingSecret: string;
  /** The largest body accepted (413 beyond it, before a byte is read when the length is declared). */
  maxBytes: number;
  logger: Logger;
  /**
   * A request carrying neither X-Slack-Signature nor X-Slack-Request-Timestamp is let through as
   * `signed: false` (for a test-only mode the caller vouches for); default: refused like a bad one.
   */
  allowUnsigned?: boolean;
}

/**
 * The guard above for a route of our own that Slack signs (POST /mcp): the same timestamp window,
 * size cap, bounded reads and signature check, on a budget of its own, before anything is parsed.
 * The caller writes the answer; a refused body's rest is dropped as the guard drops it.
 */
export function createSignedBodyReader(
  options: SignedBodyReaderOptions,
): (req: IncomingMessage) => Promise<SignedBody> {
  const pools: Pools = { small: new ByteBudget(SMALL_BODY_BUDGET_BYTES), large: new Slots(LARGE_BODIES_AT_ONCE) };
  const log = createRefusalLog(options.logger);
  const refused = (req: IncomingMessage, r: RefusalAnswer): SignedBody => {
    log(r.reason, { status: r.status, problem: r.text, ...r.fields });
    discardThenClose(req);
    return {
      ok: false,
      status: r.status,
      reason: r.reason,
      text: r.text,
      ...(r.headers ? { headers: r.headers } : {}),
    };
  };
  return async (req) => {
    const nowMs = Date.now();
    const early = headerRefusal(req, nowMs, options.maxBytes);
    if (early !== undefined) return refused(req, early);
    const body = await readWithinBounds(req, pools, options.maxBytes);
    if (body === 'gone') return 'gone';
    if (!Buffer.isBuffer(body)) return refused(req, body);
    const text = body.toString();
    const unsigned =
      req.headers['x-slack-signature'] === undefined && req.headers['x-slack-request-timestamp'] === undefined;
    if (unsigned && options.allowUnsigned) return { ok: true, body: text, signed: false };
    const problem = signatureProblem(req, text, options.signingSecret, nowMs);
    if (problem !== undefined) return refused(req, { status: 401, reason: 'signature', text: problem });
    return { ok: true, body: text, signed: true };
  };
}

function isEventsPost(req: IncomingMessage, endpoint: string): boolean {
  if (req.method !== 'POST') return false;
  try {
    return new URL(req.url ?? '/', 'http://localhost').pathname === endpoint;
  } catch {
    return false;
  }
}

const tooLargeText = (maxBytes: number) =>
  maxBytes === MAX_BODY_BYTES
    ? `Request body too large: Slack's largest request (a big modal's submission) is under ${MAX_BODY_BYTES / 1024 / 1024} MB.`
    : `Request body too large: at most ${Math.round(maxBytes / 1024)} kB is accepted here.`;

function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  // Node's parser has already refused a malformed or doubled Content-Length.
  return header === undefined ? undefined : Number(header);
}

/** Undefined when the header is absent (the signature check refuses that later) or within the window. */
function timestampSkew(
  value: string | string[] | undefined,
  nowMs: number,
): { text: string; seconds?: number | undefined } | undefined {
  if (value === undefined) return undefined;
  const header = Array.isArray(value) ? value.join(',') : value;
  const ts = Number(header);
  if (header.trim() === '' || !Number.isFinite(ts)) {
    return { text: 'X-Slack-Request-Timestamp is not a number of seconds.' };
  }
  const seconds = Math.round(ts - nowMs / 1000);
  if (Math.abs(seconds) <= TIMESTAMP_WINDOW_SECONDS) return undefined;
  const direction = seconds > 0 ? 'ahead of' : 'behind';
  return {
    seconds,
    text: `X-Slack-Request-Timestamp is ${Math.abs(seconds)} s ${direction} this server's clock (allowed: ${TIMESTAMP_WINDOW_SECONDS} s either way). If this is Slack, check the server's clock (NTP).`,
  };
}

function signatureProblem(
  req: IncomingMessage,
  text: string,
  signingSecret: string,
  nowMs: number,
): string | undefined {
  const signature = req.headers['x-slack-signature'];
  const timestamp = req.headers['x-slack-request-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') {
    return 'X-Slack-Signature and X-Slack-Request-Timestamp are required.';
  }
  try {
    verifySlackRequest({
      signingSecret,
      body: text,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(timestamp) },
      nowMilliseconds: nowMs,
    });
    return undefined;
  } catch {
    return 'The request signature does not match: check SLACK_SIGNING_SECRET.';
  }
}

/**
 * The body, 'too-large' once the running count passes `limit` (reading stops), 'busy' when `charge`
 * refuses a chunk (the buffer budget is spent; reading stops), or 'gone'.
 */
function readBody(
  req: IncomingMessage,
  limit: number,
  charge: (bytes: number) => boolean,
): Promise<Buffer | 'too-large' | 'gone' | 'busy'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | 'too-large' | 'gone' | 'busy') => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onGone);
      req.off('error', onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        finish('too-large');
        return;
      }
      if (!charge(chunk.length)) {
        chunks.length = 0;
        req.pause();
        finish('busy');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks, size));
    const onGone = () => finish('gone');
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onGone);
    req.on('error', onGone);
  });
}

/**
 * Drops what is left of a refused body for a moment, so that the sender reads the answer instead of
 * a connection reset (closing a socket with unread data resets it), then closes the connection if the
 * body is still coming. Nothing is kept: memory stays flat whatever the sender does.
 */
function discardThenClose(req: IncomingMessage): void {
  if (req.complete) return;
  let dropped = 0;
  const close = () => req.socket.destroy();
  const timer = setTimeout(close, DISCARD_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_BYTES) close();
  });
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
  req.once('error', done);
  req.resume();
}

/** The first refusal of each reason in a minute is logged whole; the others become one count. */
function createRefusalLog(logger: Logger): (reason: Refusal, fields: Record<string, unknown>) => void {
  const logged = new Set<Refusal>();
  const counted = new Map<Refusal, number>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    for (const [reason, count] of counted) {
      logger.warn('Slack requests refused', { reason, count, windowSeconds: REFUSAL_LOG_WINDOW_MS / 1000 });
    }
    counted.clear();
    logged.clear();
  };
  return (reason, fields) => {
    if (!logged.has(reason)) {
      logged.add(reason);
      logger.warn('Slack request refused', { reason, ...fields });
    } else {
      counted.set(reason, (counted.get(reason) ?? 0) + 1);
    }
    if (!timer) {
      timer = setTimeout(flush, REFUSAL_LOG_WINDOW_MS);
      timer.unref();
    }
  };
}
