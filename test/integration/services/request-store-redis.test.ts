/**
 * Course requests shared through Redis by two replicas (two stores on one server): each decision is
 * taken once, and concurrent changes are all kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRequestStore, type RedisRequestStore } from '../../../src/services/requests/redis-store.js';
import { redisSkipReason, startTestRedis, type TestRedis } from '../../support/redis.js';
import { sampleRequest } from '../../support/requests.js';

const request = sampleRequest;

describe.skipIf(redisSkipReason !== undefined)(
  `course requests shared through Redis${redisSkipReason === undefined ? '' : ` (skipped: ${redisSkipReason})`}`,
  () => {
    let redis: TestRedis;
    let a: RedisRequestStore;
    let b: RedisRequestStore;
    beforeAll(async () => {
      redis = await startTestRedis();
      const url = redis.scratchUrl(5);
      await redis.flush(url);
      a = createRedisRequestStore(url);
      b = createRedisRequestStore(url);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await redis?.close();
    });

    it('two replicas decide one request at once: exactly one decision is taken, the other learns it', async () => {
      await a.put(request('r0000000000a1'));
      const at = '2026-11-23T09:00:00.000Z';
      const results = await Promise.all([
        a.decide('r0000000000a1', { kind: 'approve', by: 'U0MGR00001', at }),
        b.decide('r0000000000a1', { kind: 'approve', by: 'U0WSADMIN1', at }),
        b.decide('r0000000000a1', { kind: 'deny', by: 'U0WSADMIN1', at }),
      ]);
      const won = results.filter((r) => r.ok);
      expect(won).toHaveLength(1);
      const winner = won[0]?.ok ? won[0].request.decidedBy : undefined;
      for (const r of results.filter((x) => !x.ok)) {
        expect(r).toMatchObject({ ok: false, reason: 'already', request: { decidedBy: winner } });
      }
      expect((await b.get('r0000000000a1'))?.decidedBy).toBe(winner);
    });

    it('concurrent changes from both replicas are all kept', async () => {
      await a.put(request('r0000000000a2'));
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).update('r0000000000a2', (r) => {
            r.cards.push({ channel: `C0CARD${i}`, ts: `${i}` });
          }),
        ),
      );
      expect((await a.get('r0000000000a2'))?.cards).toHaveLength(10);
      expect((await b.byRequester('U0NOROLE01')).map((r) => r.id).sort()).toEqual(['r0000000000a1', 'r0000000000a2']);
    });

    it('prune drops the decided requests no longer needed, on every replica', async () => {
      const now = new Date('2026-11-25T12:00:00.000Z');
      const old = '2026-10-01T09:00:00.000Z';
      await a.put({ ...request('r0000000000a3'), status: 'denied', createdAt: old, decidedAt: old });
      await a.put({ ...request('r0000000000a4'), createdAt: old });
      expect(await b.prune?.(now)).toBe(1);
      expect(await a.get('r0000000000a3')).toBeUndefined();
      expect((await a.get('r0000000000a4'))?.status).toBe('pending');
      expect(await a.prune?.(now)).toBe(0);
    });
  },
);
