/**
 * REDIS_URL set and Redis down, end to end: a command is answered with what is wrong (the shared rate
 * budget cannot be reached) instead of "Something went wrong", and nothing reaches the licensing API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisConnections } from '../../src/kernel/services/redis.js';
import { type RespondedRequest, startTestApp, type TestApp } from '../support/app-harness.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';
import { freePort } from '../support/redis.js';

const final = async (r: RespondedRequest) => allText((await r.waitForResponse(isFinalReply, 20_000)).body);

describe('Redis down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on this port: as if Redis had stopped.
    const redisUrl = `redis://127.0.0.1:${await freePort()}`;
    t = await startTestApp({
      licensing: {
        rateLimit: {
          limit: 25,
          windowMs: 3000,
          marginMs: 100,
          redis: createRedisConnections(redisUrl, 'license-desk-test:'),
        },
        cacheTtlMs: 0,
      },
    });
  });
  afterAll(() => t.close());

  it('a command says the shared rate budget (Redis) cannot be reached, and sends nothing', async () => {
    const text = await final(await t.command('pools'));
    expect(text).toMatch(/can't reach its shared rate budget \(Redis\)/);
    expect(text).toMatch(/nothing was changed/);
    expect(text).not.toMatch(/Something went wrong/);
    expect(t.sandbox.requests).toHaveLength(0);
  });
});
