/**
 * The limiter with REDIS_URL pointing at a Redis that is down (docs/rate-limiting.md, "Redis"): requests
 * fail at once with an error that names the shared rate budget, the log says so once and then
 * summarises, and says when Redis is back. Nothing listens on the port at first, so most of this needs
 * no Redis; "back" starts a private redis-server on that port when one is installed.
 */
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { RateBudgetUnavailableError } from '../../../src/kernel/licensing/errors.js';
import {
  type BottleneckLimiterOptions,
  createBottleneckLimiter,
} from '../../../src/kernel/licensing/limiter/limiter-bottleneck.js';
import { createRedisConnections } from '../../../src/kernel/services/redis.js';
import { freePort, privateRedisSkipReason, startPrivateRedis, type TestRedis } from '../../support/redis.js';
import { type LogLine, watchingLogger } from '../../support/watching-logger.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function limiterOn(redisUrl: string, extra: Partial<BottleneckLimiterOptions>) {
  const limiter = createBottleneckLimiter({
    limit: 5,
    windowMs: 1_000,
    marginMs: 50,
    reservedInteractive: 1,
    maxQueue: 10,
    redis: createRedisConnections(redisUrl, 'license-desk-test:'),
    id: 'license-desk-test:redis-down',
    // The old path waited this long for Redis: far past the test's own timeout, so only failing fast passes.
    redisReadyTimeoutMs: 120_000,
    ...extra,
  });
  cleanup.push(() => limiter.stop());
  return limiter;
}

const unreachable = (l: LogLine) => l.level === 'warn' && /Redis is unreachable/.test(l.message);
const summaries = (lines: LogLine[]) =>
  lines.filter((l) => /Redis still unreachable: \d+ reconnect attempts/.test(l.message));

describe.concurrent('the limiter while Redis is down', () => {
  it('refuses at once with an error about the shared rate budget, sends nothing, never shows the password', async () => {
    const port = await freePort();
    const limiter = limiterOn(`redis://:s3cret-pass@127.0.0.1:${port}`, {});
    let sent = 0;
    const attempt = () =>
      limiter
        .schedule('interactive', async () => {
          sent++;
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    const first = await attempt();
    expect(first).toBeInstanceOf(RateBudgetUnavailableError);
    expect(String(first)).toMatch(/shared rate budget in Redis cannot be reached/);
    expect(String(first)).not.toContain('s3cret-pass');
    // Known to be down now: the next one is refused without waiting for anything.
    expect(await attempt()).toBeInstanceOf(RateBudgetUnavailableError);
    expect(sent).toBe(0);
  });

  it('a Redis that accepts connections but never answers: refused with the same error after the ready timeout', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          silent.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        }),
    );
    const { port } = silent.address() as AddressInfo;
    const limiter = limiterOn(`redis://127.0.0.1:${port}`, { redisReadyTimeoutMs: 300 });
    let sent = false;
    const error = await limiter
      .schedule('interactive', async () => {
        sent = true;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateBudgetUnavailableError);
    expect(String(error)).toMatch(/no answer within 300 ms/);
    expect(sent).toBe(false);
  });

  it.skipIf(privateRedisSkipReason !== undefined)(
    `says it once, then summarises the reconnect attempts, then says it is back${privateRedisSkipReason ? ` (skipped: ${privateRedisSkipReason})` : ''}`,
    async () => {
      const port = await freePort();
      const logger = watchingLogger();
      const limiter = limiterOn(`redis://127.0.0.1:${port}`, { logger, redisLogSummaryMs: 300 });
      await logger.until((lines) => summaries(lines).length >= 2);

      const loud = logger.lines.filter((l) => l.level === 'warn' || l.level === 'error');
      expect(loud.filter(unreachable)).toHaveLength(1);
      // Nothing else: no line per reconnect attempt.
      expect(loud.length).toBe(1 + summaries(logger.lines).length);

      const redis: TestRedis = await startPrivateRedis(port);
      cleanup.push(() => redis.close());
      await logger.until((lines) => lines.some((l) => /Redis is reachable again after \d+ s/.test(l.message)));
      await expect(limiter.schedule('interactive', async () => 'sent')).resolves.toBe('sent');
      expect(logger.lines.filter(unreachable)).toHaveLength(1);
    },
  );
});
