import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  createLicensingClient,
  createUnlimitedLimiter,
  ForbiddenError,
  InvalidResponseError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/kernel/licensing/index.js';
import { caught, type Harness, startHarness } from '../../support/licensing-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({}, { cacheTtlMs: 0 });
});
afterEach(() => {
  h.sandbox.clearFaults();
  h.sandbox.setRateLimit(false);
  h.sandbox.clearRequests();
});
afterAll(async () => {
  await h.close();
});

describe('error statuses from the sandbox', () => {
  it('401 with a bad token, not retried', async () => {
    const client = h.extraClient({ token: 'not-a-valid-token' });
    const error = await caught(client.pools.list());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(h.calls()).toEqual(['GET /v1/pools']);
  });

  it('403 with the read-only token on a write; reads still work', async () => {
    const client = h.extraClient({ token: h.sandbox.readOnlyToken });
    expect((await client.pools.get('2007')).id).toBe('2007');
    const error = await caught(client.pools.assign('2007', { email: 'someone@contoso.com' }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).outcomeUnknown).toBe(false);
    expect(h.sandbox.inspect.student({ email: 'someone@contoso.com' })).toBeUndefined();
  });

  it('404 for a missing pool names the endpoint template', async () => {
    const error = await caught(h.client.pools.get('424242'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).endpoint).toBe('GET /v1/pool/{id}');
  });

  it('400 keeps the server message for display', async () => {
    const [enrolled] = h.sandbox.inspect.licenses({ poolId: '2001' });
    const error = await caught(h.client.pools.assign('2001', { email: enrolled?.student.email ?? '' }));
    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect(bad.serverMessage.length).toBeGreaterThan(10);
    expect(bad.serverMessage).not.toBe('the licensing service refused the request');
    expect(bad.message).toContain(bad.serverMessage);
    expect(h.calls()).toHaveLength(1);
  });

  it('5xx on a read is retried and succeeds; the sandbox saw every attempt', async () => {
    h.sandbox.addFault({ kind: '500', method: 'GET', path: /^\/v1\/pools$/, times: 2 });
    const pools = await h.client.pools.list();
    expect(pools).toHaveLength(h.sandbox.inspect.pools().length);
    expect(h.sandbox.requests.map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('5xx that persists ends in ServerError after the configured attempts', async () => {
    h.sandbox.addFault({ kind: '500', method: 'GET', path: /^\/v1\/me$/ });
    const error = await caught(h.client.me());
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(500);
    expect(h.sandbox.requests).toHaveLength(3);
  });

  it('a reset on a read is retried', async () => {
    h.sandbox.addFault({ kind: 'reset', method: 'GET', path: /^\/v1\/pool\//, times: 1 });
    expect((await h.client.pools.get('2001')).id).toBe('2001');
    expect(h.sandbox.requests.map((r) => r.status)).toEqual([0, 200]);
  });

  it('a reset that persists ends in ConnectionError', async () => {
    h.sandbox.addFault({ kind: 'reset', method: 'GET', path: /^\/v1\/pool\// });
    const error = await caught(h.client.pools.get('2001'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(h.sandbox.requests).toHaveLength(3);
  });

  it('malformed JSON is an InvalidResponseError, not retried', async () => {
    h.sandbox.addFault({ kind: 'malformed-json', method: 'GET', path: /^\/v1\/courses$/ });
    const error = await caught(h.client.courses.list());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).endpoint).toBe('GET /v1/courses');
    expect(h.sandbox.requests).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('a hanging server gives TimeoutError within the configured timeouts, never a hang', async () => {
    const client = h.extraClient({
      timeouts: { connectMs: 200, headersMs: 200, bodyMs: 200 },
      retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
    });
    h.sandbox.addFault({ kind: 'hang', method: 'GET', path: /^\/v1\/pools$/ });
    const started = performance.now();
    const error = await caught(client.pools.list());
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('headers timeout');
    expect(h.sandbox.requests).toHaveLength(2);
    // Two attempts of 200 ms each plus a short backoff; generous for a loaded machine, far below a hang.
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('an unreachable server gives ConnectionError quickly', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = h.extraClient({ baseUrl: `http://127.0.0.1:${port}`, retry: { attempts: 1 } });
    const error = await caught(client.me());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toContain('connection refused');
  });
});

describe('429 from a tiny sandbox rate limit', () => {
  it('honours Retry-After: every read succeeds after the pause, the limiter is told', async () => {
    h.sandbox.setRateLimit({ limit: 2, windowMs: 1_000, algorithm: 'fixed-window', retryAfter: true });
    const paused: (number | undefined)[] = [];
    const base = createUnlimitedLimiter();
    const client = h.extraClient({
      limiter: {
        ...base,
        onRateLimited: (report) => {
          paused.push(report.retryAfterMs);
          return undefined;
        },
      },
      retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 5_000 },
    });
    const results = await Promise.all([1, 2, 3].map(() => client.pools.get('2001', { fresh: true })));
    expect(results.every((p) => p.id === '2001')).toBe(true);
    const statuses = h.sandbox.requests.map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(paused).toEqual([1_000]);
  });

  it('without Retry-After backs off and retries writes too; gives RateLimitedError when 429s persist', async () => {
    h.sandbox.setRateLimit({ limit: 1, windowMs: 400, algorithm: 'sliding-log', retryAfter: false });
    const client = h.extraClient({ retry: { attempts: 6, baseDelayMs: 150, maxDelayMs: 1_000 } });
    const first = await client.pools.assign('2007', { email: 'rate.one@contoso.com' });
    const second = await client.pools.assign('2007', { email: 'rate.two@contoso.com' });
    expect(second.id).not.toBe(first.id);
    const posts = h.sandbox.requests.filter((r) => r.method === 'POST');
    expect(posts.filter((r) => r.status === 200)).toHaveLength(2);
    expect(posts.some((r) => r.status === 429)).toBe(true);

    h.sandbox.setRateLimit({ limit: 1, windowMs: 60_000, algorithm: 'fixed-window', retryAfter: false });
    const quick = h.extraClient({ retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 } });
    await quick.me().catch(() => undefined);
    const error = await caught(quick.me({ fresh: true }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSec).toBeGreaterThanOrEqual(1);
  });
});

describe('payloads that break the schema, and a stalled body, over real HTTP', () => {
  let server: Server;
  let url: string;
  let body = '[]';
  let stallBody = false;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Headers and half a body, then silence: the body timeout's case.
      if (stallBody) res.write(body.slice(0, 10));
      else res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('names the endpoint and the field path', async () => {
    const license = {
      id: 1,
      poolId: 2,
      courseId: '3',
      start: '2024-04-17T15:23:08+00:00',
      end: '2025-04-17T15:23:08+00:00',
      active: true,
      revokable: true,
      editable: true,
      student: { id: 4, name: 'Ada', email: 'ada@example.com' },
    };
    body = JSON.stringify([license, license, license, { ...license, student: { id: 5, name: 'B' } }]);
    const client = createLicensingClient({ baseUrl: url, token: 'x-token', limiter: createUnlimitedLimiter() });
    try {
      const error = await caught(client.pools.licenses('7'));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as InvalidResponseError).endpoint).toBe('GET /v1/pool/{id}/licenses');
      expect((error as InvalidResponseError).field).toBe('[3].student.email');
      body = JSON.stringify({ ...license, end: '2025-04-17 15:23' });
      const dateError = await caught(client.licenses.get('1'));
      expect((dateError as InvalidResponseError).field).toBe('end');
      body = '<html>gateway</html>';
      expect(await caught(client.me())).toBeInstanceOf(InvalidResponseError);
    } finally {
      await client.close();
    }
  });

  it('a body that stalls after the headers gives a body TimeoutError within the configured timeout', async () => {
    body = JSON.stringify({ id: 1, name: 'x' });
    stallBody = true;
    const client = createLicensingClient({
      baseUrl: url,
      token: 'x-token',
      limiter: createUnlimitedLimiter(),
      timeouts: { connectMs: 200, headersMs: 200, bodyMs: 200 },
      retry: { attempts: 1 },
    });
    try {
      const started = performance.now();
      const error = await caught(client.me());
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).message).toContain('body timeout');
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      stallBody = false;
      await client.close();
    }
  });
});
