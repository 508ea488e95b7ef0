import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  ForbiddenError,
  InvalidResponseError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/kernel/licensing/index.js';
import { createRecordingLogger, everythingAbout } from '../../support/licensing-fakes.js';
import { caught, type Harness, startHarness } from '../../support/licensing-harness.js';

const ADMIN = 'admin-Zq7-very-secret-token-0042';
const READ_ONLY = 'readonly-Xk9-very-secret-token-0043';
const BAD = 'bad-Wm3-not-a-token-0044';
let h: Harness;
const logger = createRecordingLogger();

beforeAll(async () => {
  h = await startHarness(
    { adminToken: ADMIN, readOnlyToken: READ_ONLY },
    {
      logger,
      cacheTtlMs: 0,
      timeouts: { connectMs: 200, headersMs: 200, bodyMs: 200 },
      retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 1_000 },
    },
  );
});
afterAll(async () => {
  await h.close();
});

describe('the token never leaks', () => {
  it('from any error kind, its stack, its JSON or its cause, nor from any log line', async () => {
    const { sandbox, client } = h;
    const readOnly = h.extraClient({ token: READ_ONLY });
    const bad = h.extraClient({ token: BAD });
    const errors: unknown[] = [];
    const provoke = async (fault: Parameters<typeof sandbox.addFault>[0] | undefined, run: () => Promise<unknown>) => {
      sandbox.clearFaults();
      if (fault) sandbox.addFault(fault);
      errors.push(await caught(run()));
    };
    await provoke(undefined, () => bad.me());
    await provoke(undefined, () => readOnly.licenses.revoke('4001'));
    await provoke(undefined, () => client.pools.get('999999'));
    await provoke(undefined, () => client.pools.assign('2001', { email: 'not an address' }));
    await provoke({ kind: '500' }, () => client.pools.list());
    await provoke({ kind: 'reset' }, () => client.courses.list());
    await provoke({ kind: 'hang' }, () => client.me());
    await provoke({ kind: 'malformed-json' }, () => client.licenses.list());
    sandbox.clearFaults();
    sandbox.setRateLimit({ limit: 1, windowMs: 60_000, algorithm: 'fixed-window', retryAfter: false });
    await client.students.list().catch(() => undefined);
    await provoke(undefined, () => client.students.find({ id: '3001' }));
    sandbox.setRateLimit(false);
    await provoke(undefined, () => h.extraClient({ baseUrl: 'http://127.0.0.1:1', retry: { attempts: 1 } }).me());

    expect(errors.map((e) => (e as Error).constructor)).toEqual([
      UnauthorizedError,
      ForbiddenError,
      NotFoundError,
      BadRequestError,
      ServerError,
      ConnectionError,
      TimeoutError,
      InvalidResponseError,
      RateLimitedError,
      ConnectionError,
    ]);
    for (const error of errors) {
      const text = everythingAbout(error);
      for (const secret of [ADMIN, READ_ONLY, BAD]) expect(text).not.toContain(secret);
    }
    expect(logger.lines.filter((l) => l.level === 'debug').length).toBeGreaterThanOrEqual(errors.length);
    expect(logger.lines.some((l) => l.level === 'warn')).toBe(true);
    for (const secret of [ADMIN, READ_ONLY, BAD]) expect(logger.text()).not.toContain(secret);
  });
});
