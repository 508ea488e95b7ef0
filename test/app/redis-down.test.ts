/**
 * REDIS_URL set and Redis down, end to end: a command is answered with what is wrong (the shared rate
 * budget cannot be reached) instead of "Something went wrong", and nothing reaches the licensing API;
 * the daily alert check, whose lease is in the database, still runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * REDIS_URL set and Redis down, the daily alert check: its one-replica lease is in the database, so it
 * runs, takes the lease and posts (here the licensing budget is this process's own, so the reads go
 * out; on the shared budget they wait for Redis as the limiter says). Redis keeps only the rate budget,
 * the repeat guard and caches: no job waits for it.
 */
describe('Redis down: the daily alert check', () => {
  const CHANNEL = 'C0LICALERT';
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-redis-down-'));
    const redisUrl = `redis://127.0.0.1:${await freePort()}`;
    t = await startTestApp({
      dataDir: dir,
      auditChannel: CHANNEL,
      now: () => new Date('2026-11-21T10:00:00Z'),
      redis: createRedisConnections(redisUrl, 'license-desk-test:'),
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs, posts the day's alerts once, and lets go of its lease", async () => {
    // The desk's shared state is on Redis (which is down); the day's lease is not.
    expect(t.deps.desk?.shared.shared).toBe(true);
    expect(await t.desk?.scheduler?.tick()).toBe('ran');
    const posts = t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL);
    expect(posts.map((c) => allText(c.args)).some((text) => text.includes('full or nearly full'))).toBe(true);
    expect(await t.desk?.scheduler?.tick()).toBe('already-ran');
    expect(await t.deps.desk?.alertLease.holder('alerts: daily check')).toBeUndefined();
  });
});
