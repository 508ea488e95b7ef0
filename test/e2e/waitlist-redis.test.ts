/**
 * The waitlist with REDIS_URL: two app instances (replicas) over one sandbox, one fake Slack and one
 * Redis share the lines, and a seat freed while both try to give it is given once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CourseRequest, requestTimers } from '../../src/domain/requests.js';
import { createRedisRequestStore, type RedisRequestStore } from '../../src/services/requests/redis-store.js';
import type { Waitlist } from '../../src/services/waitlist.js';
import { createRedisWaitlist } from '../../src/services/waitlist-redis.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { redisSkipReason, startTestRedis, type TestRedis } from '../support/redis.js';
import { callSandbox } from '../support/sandbox.js';
import { allText } from '../unit/blocks/fixtures.js';

const POOL = '2003';
const USERS = [
  { id: 'U0RWAIT001', name: 'rita.one', email: 'rita.one@contoso.com' },
  { id: 'U0RWAIT002', name: 'rob.two', email: 'rob.two@fabrikam.com' },
];

describe.skipIf(redisSkipReason !== undefined)('waitlist shared through Redis', () => {
  let redis: TestRedis;
  let url: string;
  let dirA: string;
  let dirB: string;
  let a: TestApp;
  let b: TestApp;
  let wa: { waitlist: Waitlist };
  let wb: { waitlist: Waitlist };
  let stores: RedisRequestStore[] = [];
  /** An approved request, stored as the request service stores it (shared through Redis). */
  const approved = async (id: string, requester: string, email: string) => {
    const r: CourseRequest = {
      id,
      requester,
      requesterEmail: email,
      poolId: POOL,
      courseTitle: 'Optimizing DAX',
      createdAt: new Date().toISOString(),
      status: 'waitlisted',
      decidedBy: TEST_USERS.admin,
      source: 'command',
      cards: [],
    };
    await stores[0]?.put(r);
    return r;
  };

  beforeAll(async () => {
    redis = await startTestRedis();
    url = redis.scratchUrl(7);
    await redis.flush(url);
    dirA = await mkdtemp(join(tmpdir(), 'desk-wl-a-'));
    dirB = await mkdtemp(join(tmpdir(), 'desk-wl-b-'));
    // Requests and lines both live in Redis, as with REDIS_URL in main.ts.
    stores = [createRedisRequestStore(url), createRedisRequestStore(url)];
    const requests = (i: number) => ({ store: stores[i] as RedisRequestStore, timers: requestTimers(24, 7) });
    a = await startTestApp({
      dataDir: dirA,
      slack: { users: USERS },
      requests: requests(0),
      waitlist: { dataDir: dirA, redisUrl: url },
    });
    b = await startTestApp({
      dataDir: dirB,
      useSandbox: a.sandbox,
      useSlack: a.slack,
      requests: requests(1),
      waitlist: { dataDir: dirB, redisUrl: url },
    });
    const of = (t: TestApp) => {
      if (!t.deps.waitlist) throw new Error('no waitlist');
      return { waitlist: t.deps.waitlist };
    };
    wa = of(a);
    wb = of(b);
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    for (const store of stores) await store.close();
    await redis?.close();
    for (const d of [dirA, dirB]) if (d) await rm(d, { recursive: true, force: true });
  });

  it('one replica adds, the other sees the line; a seat both try to give at once is given once', async () => {
    for (const [i, u] of USERS.entries()) {
      await wa.waitlist.add(await approved(`RR${i + 1}`, u.id, u.email));
    }
    expect((await wb.waitlist.entries(POOL)).map((e) => `${e.place}:${e.requestId}`)).toEqual(['1:RR1', '2:RR2']);

    const victim = a.sandbox.inspect.licenses({ poolId: POOL }).find((l) => l.active);
    expect((await callSandbox(a.sandbox, 'DELETE', `/v1/license/${victim?.id}`)).status).toBe(200);
    a.sandbox.clearRequests();
    const told = a.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === 'D0RWAIT001' && allText(c.args.blocks).includes('it is yours'),
    );
    const [ra, rb] = await Promise.all([wa.waitlist.seatFreed(POOL), wb.waitlist.seatFreed(POOL)]);
    await told;
    expect([...ra.assigned, ...rb.assigned].map((x) => x.entry.requestId)).toEqual(['RR1']);
    expect(a.sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      `/v1/pool/${POOL}/license`,
    ]);
    expect((await wb.waitlist.entries()).map((e) => e.requestId)).toEqual(['RR2']);

    // A new process on the same Redis reads the same line; a reorder by one is seen by the other.
    const fresh = createRedisWaitlist({ url, logger: a.deps.logger });
    try {
      expect(Object.keys(await fresh.store.read())).toEqual([POOL]);
    } finally {
      await fresh.close();
    }
    await wb.waitlist.add(await approved('RR3', TEST_USERS.student, 'sam.student@contoso.com'));
    await wa.waitlist.move('RR3', 0, TEST_USERS.admin);
    expect((await wb.waitlist.entries(POOL)).map((e) => e.requestId)).toEqual(['RR3', 'RR2']);
  });
});
