/**
 * The HTTP pipeline: record -> authenticate (401) -> rate limit (429) -> injected faults -> route
 * (404/405) -> permission (403) -> handler -> reply. Unknown and missing tokens are refused before the
 * rate limit, so 401s never count against any token's budget.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, type ErrorBody } from './errors.js';
import type { FaultPlan, FaultSet } from './faults.js';
import type { RateLimiter } from './rate-limit.js';
import { matchRoute } from './routes.js';
import type { Store } from './store.js';
import type { RecordedRequest } from './types.js';

/** Sent with value `1` on every answer (docs/licensing-api.md, "The sandbox says so"). */
export const SANDBOX_HEADER = 'x-licensing-sandbox';

const MAX_BODY_BYTES = 1_000_000;

export interface ServerDeps {
  store: Store;
  tokens: { admin: string; readOnly: string };
  limiter: RateLimiter;
  faults: FaultSet;
  maxPageSize: number;
  /** Appends a record; the pipeline fills in `status` when it answers (0 for reset or hang). */
  record(entry: RecordedRequest): void;
}

export interface SandboxServer {
  server: Server;
  /** Destroys every open socket (hanging requests included) and cancels pending latency. */
  destroyAll(): void;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

function tokenKind(header: string | undefined, tokens: ServerDeps['tokens']): RecordedRequest['tokenKind'] {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return 'none';
  // Compare digests in constant time: the token is a secret (licensing-api.md, Authentication).
  const given = digest(match[1]);
  if (timingSafeEqual(given, digest(tokens.admin))) return 'admin';
  if (timingSafeEqual(given, digest(tokens.readOnly))) return 'readonly';
  return 'unknown';
}

const error = (status: number, code: ErrorBody['code'], message: string): Reply => ({
  status,
  body: { message, code } satisfies ErrorBody,
});

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function createSandboxServer(deps: ServerDeps): SandboxServer {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const monotonic = (): number => performance.now();

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  function send(res: ServerResponse, entry: RecordedRequest, reply: Reply, rawBody?: string): void {
    if (res.destroyed || res.writableEnded) return;
    entry.status = reply.status;
    const body = rawBody ?? JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      // Every answer says it comes from a sandbox, so a client pointed here by URL can tell and mark its replies.
      [SANDBOX_HEADER]: '1',
      ...reply.headers,
    });
    res.end(body);
  }

  function route(method: string, path: string, query: URLSearchParams, body: string, kind: string): Reply {
    const match = matchRoute(method, path);
    if (match === undefined) return error(404, 'not_found', `There is no endpoint ${path}.`);
    if ('allowed' in match) {
      const reply = error(
        405,
        'method_not_allowed',
        `${path} does not accept ${method}; it accepts ${match.allowed.join(', ')}.`,
      );
      return { ...reply, headers: { allow: match.allowed.join(', ') } };
    }
    if (match.route.write && kind !== 'admin') {
      return error(403, 'forbidden', 'This API token is read-only; it cannot assign, change or revoke licenses.');
    }
    try {
      const result = match.route.handle({
        store: deps.store,
        params: match.params,
        query,
        body,
        maxPageSize: deps.maxPageSize,
      });
      return { status: 200, body: result };
    } catch (caught) {
      if (caught instanceof ApiError) return { status: caught.status, body: caught.toBody() };
      return error(500, 'internal_error', 'The sandbox failed unexpectedly; this is a bug in the sandbox.');
    }
  }

  /** Applies an injected fault; `reply` is the real answer when the fault comes after the work. */
  function fail(
    fault: NonNullable<FaultPlan['fault']>,
    req: IncomingMessage,
    res: ServerResponse,
    entry: RecordedRequest,
    reply?: Reply,
  ): void {
    switch (fault.kind) {
      case '500':
        send(res, entry, error(500, 'internal_error', 'Injected fault: the server failed; retry later.'));
        return;
      case '429': {
        // A refusal the rate limit itself would not have made (e.g. another client on the same token).
        const reply = error(429, 'rate_limited', 'Injected fault: too many requests. Slow down and retry later.');
        if (fault.retryAfterSec !== undefined) reply.headers = { 'retry-after': String(fault.retryAfterSec) };
        send(res, entry, reply);
        return;
      }
      case 'malformed-json': {
        const full = reply === undefined ? '{"message":"injected fault","items":[1,2' : JSON.stringify(reply.body);
        // A 200 whose body is cut in half: valid headers, unparseable JSON.
        send(res, entry, { status: 200, body: null }, full.slice(0, Math.max(1, Math.floor(full.length / 2))));
        return;
      }
      case 'reset':
        entry.status = 0;
        req.socket.resetAndDestroy();
        return;
      case 'hang':
        // Never answer; the socket stays open until the client gives up or the sandbox closes.
        entry.status = 0;
        return;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    const kind = tokenKind(req.headers.authorization, deps.tokens);
    const entry: RecordedRequest = { method, url: req.url ?? '/', at: Date.now(), status: 0, tokenKind: kind };
    deps.record(entry);
    const body = await readBody(req);
    if (kind === 'none' || kind === 'unknown') {
      const message =
        kind === 'none' ? 'Send the header Authorization: Bearer <API token>.' : 'The API token is not valid.';
      send(res, entry, error(401, 'unauthorized', message));
      return;
    }
    const decision = deps.limiter.check(kind, monotonic());
    if (!decision.allowed) {
      const config = deps.limiter.config;
      const reply = error(
        429,
        'rate_limited',
        config === false
          ? 'Too many requests.'
          : `Too many requests: at most ${config.limit} per ${config.windowMs / 1000} s for each token. Slow down and retry later.`,
      );
      if (config !== false && config.retryAfter) {
        reply.headers = { 'retry-after': String(Math.max(1, Math.ceil(decision.retryInMs / 1000))) };
      }
      send(res, entry, reply);
      return;
    }
    const plan = deps.faults.plan(method, url.pathname);
    if (plan.latencyMs > 0) await delay(plan.latencyMs);
    if (res.destroyed) return;
    if (plan.fault?.phase === 'before') return fail(plan.fault, req, res, entry);
    const reply =
      body === undefined
        ? error(400, 'invalid_body', `The request body is larger than ${MAX_BODY_BYTES} bytes.`)
        : route(method, url.pathname, url.searchParams, body, kind);
    if (plan.fault) return fail(plan.fault, req, res, entry, reply);
    send(res, entry, reply);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    server,
    destroyAll() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}
