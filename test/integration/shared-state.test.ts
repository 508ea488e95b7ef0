/**
 * The state replicas share through one Redis (a private redis-server): each part is built twice on
 * two connections, as two replicas would build it, and what one does the other sees.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/licensing/types.js';
import { createAuditLog } from '../../src/services/audit.js';
import { createDashboard } from '../../src/services/dashboard.js';
import { createSharedOnceGuard } from '../../src/services/once.js';
import type { SharedStore } from '../../src/services/shared-store.js';
import { createRedisStore } from '../../src/services/shared-store-redis.js';
import { redisSkipReason, startTestRedis, type TestRedis } from '../support/redis.js';
import { makeLicense, makePool, NOW } from '../unit/blocks/fixtures.js';
import { createFakeLicensing } from '../unit/services/fake-licensing.js';

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
  const two = () => {
    a = createRedisStore(redis.url, logger);
    b = createRedisStore(redis.url, logger);
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

  it('updates from two replicas at once are all kept (no lost update)', async () => {
    two();
    const add = (store: SharedStore, n: number) =>
      store.update('doc', (raw) => JSON.stringify([...(raw ? (JSON.parse(raw) as number[]) : []), n]));
    await Promise.all(Array.from({ length: 20 }, (_, i) => add(i % 2 ? a : b, i)));
    const doc = JSON.parse((await a.get('doc')) ?? '[]') as number[];
    expect(doc.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
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

  it('recent changes: each replica lists the entries of both, newest first, e-mails masked', async () => {
    two();
    const la = createAuditLog({ logger, shared: a });
    const lb = createAuditLog({ logger, shared: b });
    const entry = (at: string, email: string) =>
      ({ at, actor: 'U0MGR00001', action: 'assign', outcome: 'done', studentEmail: email }) as const;
    await la.record(entry('2026-11-21T09:00:00Z', 'ann@contoso.com'));
    await lb.record(entry('2026-11-21T09:01:00Z', 'ben@contoso.com'));
    const seen = await la.recent(8);
    expect(seen.map((e) => e.at)).toEqual(['2026-11-21T09:01:00Z', '2026-11-21T09:00:00Z']);
    expect(JSON.stringify(seen)).not.toMatch(/ann@|ben@/);
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
