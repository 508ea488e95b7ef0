/**
 * The state replicas share through one Redis (a private redis-server): each part is built twice on
 * two connections, as two replicas would build it, and what one does the other sees.
 */

import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/licensing/types.js';
import { type BulkJob, JobTakenOverError } from '../../src/services/bulk-jobs.js';
import { createRedisBulkJobStore } from '../../src/services/bulk-jobs-redis.js';
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

  it('bulk rows: a replica that lost the job to another cannot write its rows any more', async () => {
    const ca = new Redis(redis.url);
    const cb = new Redis(redis.url);
    try {
      const sa = createRedisBulkJobStore(ca);
      const sb = createRedisBulkJobStore(cb);
      const job: BulkJob = {
        version: 1,
        id: 'jr',
        requester: 'U0MGR00001',
        poolId: '101',
        courseTitle: 'C',
        createdAt: NOW.toISOString(),
        state: 'running',
        rows: [
          { line: 1, email: 'a@x.com', state: 'pending' },
          { line: 2, email: 'b@x.com', state: 'pending' },
        ],
        notSent: [],
      };
      await sa.save(job);
      await sa.own('jr');
      const [one, two] = job.rows;
      if (!one || !two) throw new Error('rows');
      await sa.saveRows(job, [{ ...one, state: 'sending' }]);
      // b takes the job over (a stalled past its lock); a's next write is refused.
      await sb.own('jr');
      expect((await sb.load('jr'))?.rows.map((r) => r.state)).toEqual(['sending', 'pending']);
      await expect(sa.saveRows(job, [{ ...two, state: 'sending' }])).rejects.toBeInstanceOf(JobTakenOverError);
      await sb.saveRows(job, [{ ...one, state: 'done', outcome: 'assigned' }]);
      expect((await sb.unfinished()).map((j) => j.id)).toEqual(['jr']);
      await sb.save({
        ...job,
        state: 'done',
        rows: [
          { ...one, state: 'done' },
          { ...two, state: 'done' },
        ],
      });
      expect(await sb.unfinished()).toEqual([]);
      expect(await cb.pttl('license-desk:bulk:job:jr')).toBeGreaterThan(0);
    } finally {
      ca.disconnect();
      cb.disconnect();
    }
  });
});
