/**
 * The waitlist with REDIS_URL: two app instances (replicas) over one sandbox, one fake Slack and one
 * Redis share the lines, and a seat freed while both try to give it is given once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisWaitlist } from '../../src/services/waitlist-redis.js';
import { type RunningWaitlist, startWaitlist } from '../../src/slack/waitlist/start.js';
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
  let wa: RunningWaitlist;
  let wb: RunningWaitlist;

  beforeAll(async () => {
    redis = await startTestRedis();
    url = redis.scratchUrl(7);
    await redis.flush(url);
    dirA = await mkdtemp(join(tmpdir(), 'desk-wl-a-'));
    dirB = await mkdtemp(join(tmpdir(), 'desk-wl-b-'));
    a = await startTestApp({ dataDir: dirA, slack: { users: USERS } });
    b = await startTestApp({ dataDir: dirB, useSandbox: a.sandbox, useSlack: a.slack });
    const opts = { rateLimit: { limit: 25, windowMs: 3000 }, share: 0.2, autoStart: false, redisUrl: url };
    wa = startWaitlist(a.app.client, a.deps, { ...opts, dataDir: dirA });
    wb = startWaitlist(b.app.client, b.deps, { ...opts, dataDir: dirB });
  });

  afterAll(async () => {
    await wa?.stop();
    await wb?.stop();
    await b?.close();
    await a?.close();
    await redis?.close();
    for (const d of [dirA, dirB]) if (d) await rm(d, { recursive: true, force: true });
  });

  it('one replica adds, the other sees the line; a seat both try to give at once is given once', async () => {
    for (const [i, u] of USERS.entries()) {
      await wa.waitlist.add({ id: `RR${i + 1}`, poolId: POOL, requester: u.id, decidedBy: TEST_USERS.admin });
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
    await wb.waitlist.add({ id: 'RR3', poolId: POOL, requester: TEST_USERS.student });
    await wa.waitlist.move('RR3', 0, TEST_USERS.admin);
    expect((await wb.waitlist.entries(POOL)).map((e) => e.requestId)).toEqual(['RR3', 'RR2']);
  });
});
