import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  createLicensingClient,
  ForbiddenError,
  InvalidResponseError,
  type LicensingClient,
  NotFoundError,
  QueueFullError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
} from '../../../src/kernel/licensing/index.js';
import {
  createRecordingLimiter,
  createRecordingLogger,
  everythingAbout,
  type RecordingLimiter,
} from '../../support/licensing-fakes.js';

const ORIGIN = 'http://licensing.test';
const TOKEN = 'tok-Sup3rSecret-9f8e7d';
const pool = {
  id: 1,
  course: { id: 'c1', title: 'DAX' },
  start: '2024-01-01T00:00:00+00:00',
  end: '2026-01-01T00:00:00+00:00',
  transferable: true,
  licenses: 10,
  assignedLicenses: 2,
  availableLicenses: 8,
};
const license = {
  id: 9,
  poolId: 1,
  courseId: 'c1',
  start: '2024-01-01T00:00:00+00:00',
  end: '2026-01-01T00:00:00+00:00',
  active: true,
  revokable: true,
  editable: true,
  student: { id: 3, name: 'Ada', email: 'ada.lovelace@example.com' },
};
const json = { headers: { 'content-type': 'application/json' } };

let agent: MockAgent;
let limiter: RecordingLimiter;
let logger: ReturnType<typeof createRecordingLogger>;
let client: LicensingClient;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  limiter = createRecordingLimiter();
  logger = createRecordingLogger();
  client = createLicensingClient({
    baseUrl: `${ORIGIN}/`,
    token: TOKEN,
    dispatcher: agent,
    limiter,
    logger,
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 50 },
  });
});

afterEach(async () => {
  await client.close();
  await agent.close();
});

const mock = () => agent.get(ORIGIN);

describe('licensing client over a mocked dispatcher', () => {
  it('sends the bearer token and a JSON body, and parses the answer', async () => {
    let seen: { headers: unknown; body: unknown; path: string } | undefined;
    mock()
      .intercept({ path: '/v1/pool/1/license', method: 'POST' })
      .reply((req) => {
        seen = { headers: req.headers, body: req.body, path: req.path };
        return { statusCode: 200, data: license, responseOptions: json };
      });
    const created = await client.pools.assign('1', { email: 'ada.lovelace@example.com', recycle: true });
    expect(created.id).toBe('9');
    expect(seen?.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' });
    expect(JSON.parse(String(seen?.body))).toEqual({ email: 'ada.lovelace@example.com', recycle: true });
    expect(limiter.scheduled).toEqual(['interactive']);
    expect(limiter.successes).toBe(1);
  });

  it('builds queries and encodes ids', async () => {
    mock()
      .intercept({ path: '/v1/pool/a%2Fb/licenses?includeInactive=true&page=2&pageSize=5', method: 'GET' })
      .reply(200, [license], json);
    const list = await client.pools.licenses(
      'a/b',
      { includeInactive: true, page: 2, pageSize: 5 },
      { priority: 'background' },
    );
    expect(list[0]?.student.id).toBe('3');
    expect(limiter.scheduled).toEqual(['background']);
  });

  it('retries a read after 5xx, each attempt its own limiter job', async () => {
    mock().intercept({ path: '/v1/pools' }).reply(500, 'oops').times(2);
    mock().intercept({ path: '/v1/pools' }).reply(200, [pool], json);
    const pools = await client.pools.list();
    expect(pools[0]?.id).toBe('1');
    expect(limiter.scheduled).toHaveLength(3);
    expect(limiter.successes).toBe(3);
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('gives up on a read after the configured attempts', async () => {
    mock().intercept({ path: '/v1/pools' }).reply(503, '').times(3);
    await expect(client.pools.list()).rejects.toBeInstanceOf(ServerError);
    expect(limiter.scheduled).toHaveLength(3);
  });

  it('retries a write on 429, telling the limiter the Retry-After and the send time, outside the failed job', async () => {
    mock()
      .intercept({ path: '/v1/pool/1/license', method: 'POST' })
      .reply(429, '', { headers: { 'retry-after': '0' } });
    mock().intercept({ path: '/v1/pool/1/license', method: 'POST' }).reply(200, license, json);
    const before = Date.now();
    await client.pools.assign('1', { email: 'x@example.com' });
    expect(limiter.rateLimited).toEqual([{ retryAfterMs: 0, sentAt: expect.any(Number) }]);
    expect(limiter.rateLimited[0]?.sentAt).toBeGreaterThanOrEqual(before);
    expect(limiter.scheduled).toHaveLength(2);
    expect(limiter.successes).toBe(1);
  });

  it('without a 429 policy in the limiter, waits its own backoff, and reports the wait when 429s persist', async () => {
    mock().intercept({ path: '/v1/me' }).reply(429, '').times(3);
    const error = await client.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSec).toBeGreaterThanOrEqual(1);
    expect(limiter.rateLimited).toHaveLength(3);
    expect(limiter.rateLimited.every((r) => r.retryAfterMs === undefined)).toBe(true);
    expect(limiter.successes).toBe(0);
  });

  it("with a limiter that holds retries back, resubmits at once and tells the user the limiter's wait", async () => {
    // The limiter's pause is long: a core that also waited it would time the test out.
    limiter.pauseMs = 60_000;
    mock().intercept({ path: '/v1/pools' }).reply(429, '').times(2);
    mock().intercept({ path: '/v1/pools' }).reply(200, [], json);
    expect(await client.pools.list()).toEqual([]);
    expect(limiter.rateLimited).toHaveLength(2);
    expect(limiter.scheduled).toHaveLength(3);

    // 429s held back by the limiter have their own budget of attempts (its pauses are short): six.
    mock().intercept({ path: '/v1/me' }).reply(429, '').times(6);
    const before = limiter.scheduled.length;
    const error = await client.me().catch((e: unknown) => e);
    expect(limiter.scheduled.length - before).toBe(6);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSec).toBe(60);
  });

  it('never resends a write after a 5xx and says the outcome is unknown', async () => {
    mock().intercept({ path: '/v1/license/9', method: 'DELETE' }).reply(500, '');
    mock().intercept({ path: '/v1/license/9', method: 'DELETE' }).reply(200, '');
    const error = await client.licenses.revoke('9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).outcomeUnknown).toBe(true);
    expect(agent.pendingInterceptors()).toHaveLength(1);
  });

  it('never resends a write after a reset and says the outcome is unknown', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    mock().intercept({ path: '/v1/license/9', method: 'PATCH' }).replyWithError(reset);
    mock().intercept({ path: '/v1/license/9', method: 'PATCH' }).reply(200, license, json);
    const error = await client.licenses.changeEndDate('9', '2025-06-30').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).outcomeUnknown).toBe(true);
    expect(agent.pendingInterceptors()).toHaveLength(1);
  });

  it('treats an unreadable answer to a write as outcome unknown', async () => {
    mock().intercept({ path: '/v1/pool/1/license', method: 'POST' }).reply(200, '{"id": 9,', json);
    const error = await client.pools.assign('1', { email: 'x@example.com' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).outcomeUnknown).toBe(true);
    expect((error as InvalidResponseError).endpoint).toBe('POST /v1/pool/{id}/license');
  });

  it('passes a full queue through at once, without retrying', async () => {
    limiter.refuseNext = true;
    await expect(client.pools.get('1')).rejects.toBeInstanceOf(QueueFullError);
    expect(limiter.scheduled).toHaveLength(0);
  });

  it('keeps the e-mail out of the endpoint, the errors and the logs', async () => {
    mock().intercept({ path: '/v1/student?email=ada.lovelace%40example.com&includeInactive=true' }).reply(404, '');
    const error = await client.students
      .find({ email: 'ada.lovelace@example.com' }, { includeInactive: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).endpoint).toBe('GET /v1/student');
    expect(everythingAbout(error)).not.toContain('ada.lovelace');
    expect(logger.text()).not.toContain('ada.lovelace');
    expect(logger.lines.some((l) => l.level === 'debug' && l.fields?.endpoint === '/v1/student')).toBe(true);
  });

  it('never lets the token out, whatever fails', async () => {
    // [status or transport error, body, how many attempts the client makes, expected class]
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const failures: [number | Error, unknown, number, unknown][] = [
      [400, { message: `token ${TOKEN} is not allowed here` }, 1, BadRequestError],
      [401, '', 1, UnauthorizedError],
      [403, '', 1, ForbiddenError],
      [404, '', 1, NotFoundError],
      [429, '', 3, RateLimitedError],
      [500, `internal error for Bearer ${TOKEN}`, 3, ServerError],
      [200, `<html>${TOKEN}</html>`, 1, InvalidResponseError],
      [200, [{ ...pool, id: null }], 1, InvalidResponseError],
      [refused, undefined, 3, ConnectionError],
    ];
    const seen: unknown[] = [];
    for (const [status, body, attempts] of failures) {
      const scope = mock().intercept({ path: '/v1/pools' });
      if (status instanceof Error) scope.replyWithError(status).times(attempts);
      else scope.reply(status, typeof body === 'string' ? body : JSON.stringify(body), json).times(attempts);
      seen.push(await client.pools.list({ fresh: true }).catch((e: unknown) => e));
    }
    expect(agent.pendingInterceptors()).toHaveLength(0);
    const expected = failures.map((f) => f[3]);
    expect(seen.map((e) => (e as Error).constructor)).toEqual(expected);
    for (const error of seen) expect(everythingAbout(error)).not.toContain(TOKEN);
    expect((seen[0] as BadRequestError).serverMessage).toBe('token [redacted] is not allowed here');
    expect(logger.lines.length).toBeGreaterThan(9);
    expect(logger.text()).not.toContain(TOKEN);
  });

  it('stops the limiter on close', async () => {
    await client.close();
    expect(limiter.stopped).toBe(true);
  });
});
