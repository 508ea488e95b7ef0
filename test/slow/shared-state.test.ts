/**
 * The state replicas share through one Redis (a private redis-server): each part is built twice on
 * two connections, as two replicas would build it, and what one does the other sees.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDashboard } from '../../src/digest/services/dashboard.js';
import type { Logger } from '../../src/kernel/licensing/types.js';
import { createSharedOnceGuard } from '../../src/kernel/services/once.js';
import { createRedisConnections, redisPrefix } from '../../src/kernel/services/redis.js';
import type { SharedStore } from '../../src/kernel/services/shared-store.js';
import { createRedisStore } from '../../src/kernel/services/shared-store-redis.js';
import { createFakeLicensing } from '../support/fake-licensing.js';
import { makeLicense, makePool, NOW } from '../support/fixtures.js';
import { redisSkipReason, startTestRedis, type TestRedis } from '../support/redis.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
let redis: TestRedis;
let a: SharedStore;
let b: SharedStore;

describe.skipIf(redisSkipReason !== undefined)('shared state on one Redis', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });
  afterEach(async () => {
    await a?.close();
    await b?.close();
    await redis.flush(redis.url);
  });
  // Two replicas of one deployment: the same licensing account, so the same key prefix.
  const prefix = redisPrefix('https://licensing.example/api', 'token-of-one-account');
  const two = () => {
    a = createRedisStore(createRedisConnections(redis.url, prefix), logger);
    b = createRedisStore(createRedisConnections(redis.url, prefix), logger);
  };

  it('a claim is won once across replicas, renewed and released only by its holder', async () => {
    two();
    expect(await a.claim('k', 'a', 60_000)).toBe(true);
    expect(await b.claim('k', 'b', 60_000)).toBe(false);
    expect(await b.renew('k', 'b', 60_000)).toBe(false);
    await b.delete('k', 'b');
    expect(await b.claim('k', 'b', 60_000)).toBe(false);
    expect(await a.renew('k', 'a', 60_000)).toBe(true);
    await a.delete('k', 'a');
    expect(await b.claim('k', 'b', 60_000)).toBe(true);
  });

  it("two deployments (other licensing accounts) on one Redis never see each other's keys", async () => {
    two();
    const otherConnections = createRedisConnections(
      redis.url,
      redisPrefix('https://licensing.example/api', 'token-of-another'),
    );
    const other = createRedisStore(otherConnections, logger);
    try {
      expect(await a.claim('once:click', 'a', 60_000)).toBe(true);
      expect(await other.claim('once:click', 'o', 60_000)).toBe(true);
      await a.set('home:snapshot', 'mine');
      expect(await other.get('home:snapshot')).toBeUndefined();
      expect(await b.get('home:snapshot')).toBe('mine');
      const probe = createRedisConnections(redis.url, '').connect('test-probe');
      const keys = (await probe.keys('*')).sort();
      probe.disconnect();
      expect(keys).toEqual(
        [`${otherConnections.prefix}once:click`, `${prefix}home:snapshot`, `${prefix}once:click`].sort(),
      );
      expect(prefix).toMatch(/^license-desk:[0-9a-f]{16}:$/);
      expect(JSON.stringify(keys)).not.toContain('token-of');
    } finally {
      await other.close();
    }
  });

  it('the repeat guard: a double click split across two replicas is claimed once', async () => {
    two();
    const ga = createSharedOnceGuard(a, logger);
    const gb = createSharedOnceGuard(b, logger);
    const claims = await Promise.all([ga.claim('revoke:1.2:4005'), gb.claim('revoke:1.2:4005')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    await ga.release('revoke:1.2:4005');
    expect(await gb.claim('revoke:1.2:4005')).toBe(true);
  });

  it('App Home: a replica shows the snapshot another one just read, without reading the licensing API itself', async () => {
    two();
    const pools = [makePool({ id: '101' })];
    const ends = new Date(NOW.getTime() + 3 * 86_400_000).toISOString();
    const licenses = [
      makeLicense({ id: '9', active: true, end: ends, student: { id: 's9', email: 'held@x.com', name: 'Held' } }),
    ];
    const fa = createFakeLicensing({ pools, licenses });
    const fb = createFakeLicensing({ pools, licenses });
    const options = { now: () => NOW, logger, limit: 25, windowMs: 60_000, share: 0.2 };
    const da = createDashboard({ ...options, licensing: fa, shared: a });
    const db = createDashboard({ ...options, licensing: fb, shared: b });
    expect((await da.refresh()).refreshed).toBe(true);
    const theirs = await db.refresh();
    expect(theirs).toMatchObject({ refreshed: false, reason: 'fresh' });
    expect(theirs.data?.pools.map((p) => p.id)).toEqual(['101']);
    expect(fb.calls).toHaveLength(0);
    expect(theirs.data?.ending?.map((l) => l.student.name)).toEqual(['Held']);
    expect(JSON.stringify(theirs.data)).not.toContain('held@x.com');
  });
});
