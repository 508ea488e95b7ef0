/**
 * A license write of a course request that a process left in flight (killed after recording it,
 * before or after the POST), settled by the next process on the same records, on SQLite and
 * PostgreSQL: the requester's licenses in the pool are read back, never resent; the request ends
 * assigned, or back to pending (an approval) or in line (the waitlist), and each person is told once.
 */
import { describe, expect, it } from 'vitest';
import type { Records } from '../../src/kernel/db/open.js';
import { createIntents } from '../../src/kernel/services/writes/intents.js';
import { buildRequestDecisionMessage } from '../../src/requests/blocks/requests.js';
import { createDbRequestStore } from '../../src/requests/db/request-store.js';
import type { CourseRequest } from '../../src/requests/domain/requests.js';
import { requestTimers } from '../../src/requests/domain/requests.js';
import { REQUEST_ASSIGN_INTENT } from '../../src/requests/services/service.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { textOf } from '../support/change-flow.js';
import { cleanupsAfterEach } from '../support/cleanups.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { testDatabases } from '../support/records.js';
import { sampleRequest } from '../support/requests.js';
import { callSandbox } from '../support/sandbox.js';

const cleanups = cleanupsAfterEach();

const EMAIL = 'nora.quinn@acme-learning.example';
const dmOf = (user: string) => `D${user.slice(1)}`;

/**
 * What the killed process had recorded: the request 'assigning' with an open intent of a process
 * that is gone (its instance row says it was last seen long ago).
 */
async function leftInFlight(records: Records, r: CourseRequest, from: 'approval' | 'waitlist', rank: number | null) {
  const gone = `i-gone-${Math.random().toString(36).slice(2)}`;
  const long = '2020-01-01T00:00:00.000Z';
  await records.db.insertInto('instances').values({ id: gone, started_at: long, seen_at: long }).execute();
  const dead = { ...records, instance: gone };
  const store = createDbRequestStore({ db: records.db, dialect: records.dialect, now: () => new Date() });
  await store.transaction(async (trx, s) => {
    const intentId = await createIntents(dead, () => new Date()).open(trx, {
      kind: REQUEST_ASSIGN_INTENT,
      owner: TEST_USERS.admin,
      subject: r.id,
      poolId: r.poolId,
      body: { requestId: r.id, poolId: r.poolId, email: r.requesterEmail, from },
    });
    const at = new Date().toISOString();
    await s.put({
      ...r,
      status: 'assigning',
      decidedBy: TEST_USERS.admin,
      decidedAt: at,
      assigning: { intentId, from, by: TEST_USERS.admin, at },
    });
    if (rank !== null) await trx.updateTable('requests').set({ waitlist_rank: rank }).where('id', '=', r.id).execute();
  });
}

describe.each(testDatabases())('a request write left in flight, on $dialect', ({ skip, open }) => {
  async function app(now?: () => Date): Promise<TestApp> {
    const db = await open();
    cleanups.push(db.close);
    const t = await startTestApp({
      ...(now ? { now } : {}),
      records: db.records,
      requests: { channel: 'C0SETTLE01', timers: requestTimers(24, 7) },
      waitlist: { offers: { hours: 0 } },
    });
    cleanups.push(() => t.close());
    return t;
  }
  const posts = (t: TestApp) => t.sandbox.requests.filter((r) => r.method === 'POST');
  const dms = (t: TestApp, user: string) =>
    t.slack.calls
      .filter((c) => c.method === 'chat.postMessage' && c.args.channel === dmOf(user))
      .map((c) => textOf(c.args.blocks));

  it.skipIf(skip !== undefined)(
    'killed after the POST of an approval: assigned by reading back, no second POST, each person told once',
    async () => {
      const t = await app();
      const records = t.records as Records;
      await leftInFlight(records, sampleRequest('r-after'), 'approval', null);
      // The POST that went out before the kill.
      expect((await callSandbox(t.sandbox, 'POST', '/v1/pool/2002/license', { body: { email: EMAIL } })).status).toBe(
        200,
      );
      t.sandbox.clearRequests();
      expect(await t.settler?.runOnce()).toBe(1);
      const r = await t.deps.requests?.store.get('r-after');
      expect(r?.status).toBe('assigned');
      expect(r?.licenseId).toBeDefined();
      expect(posts(t)).toEqual([]);
      await t.outbox?.flush();
      // A second round (the next minute) finds nothing, and tells nobody again.
      expect(await t.settler?.runOnce()).toBe(0);
      await t.outbox?.flush();
      expect(dms(t, TEST_USERS.nobody).filter((s) => s.includes('is yours'))).toHaveLength(1);
      expect(dms(t, TEST_USERS.admin).filter((s) => s.includes('went through'))).toHaveLength(1);
      const active = (t.sandbox.inspect.licenses({ poolId: '2002' }) ?? []).filter(
        (l) => l.active && l.student.email === EMAIL,
      );
      expect(active).toHaveLength(1);
    },
  );

  it.skipIf(skip !== undefined)(
    'killed before the POST of an approval: pending again with the reason, never sent, the approver told once',
    async () => {
      const t = await app();
      await leftInFlight(t.records as Records, sampleRequest('r-before'), 'approval', null);
      t.sandbox.clearRequests();
      expect(await t.settler?.runOnce()).toBe(1);
      const r = await t.deps.requests?.store.get('r-before');
      expect(r?.status).toBe('pending');
      expect(r?.lastProblem).toContain('License Desk stopped');
      expect(posts(t)).toEqual([]);
      await t.outbox?.flush();
      expect(await t.settler?.runOnce()).toBe(0);
      await t.outbox?.flush();
      const told = dms(t, TEST_USERS.admin).filter((s) => s.includes('did not end in a license'));
      expect(told).toHaveLength(1);
      expect(told[0]).toContain('approve it again or deny it');
      // An approver can approve again: now it is assigned, one POST.
      const again = await t.deps.requests?.service.approve('r-before', TEST_USERS.admin);
      expect(again?.kind).toBe('assigned');
      expect(posts(t)).toHaveLength(1);
    },
  );

  it.skipIf(skip !== undefined)(
    'killed after the POST of a waitlist assignment: assigned and out of the line, the requester told once',
    async () => {
      const t = await app();
      await leftInFlight(t.records as Records, { ...sampleRequest('r-line'), status: 'waitlisted' }, 'waitlist', 1);
      expect((await callSandbox(t.sandbox, 'POST', '/v1/pool/2002/license', { body: { email: EMAIL } })).status).toBe(
        200,
      );
      expect(await t.deps.requests?.store.placeOf('r-line')).toBe(1);
      expect(await t.settler?.runOnce()).toBe(1);
      expect((await t.deps.requests?.store.get('r-line'))?.status).toBe('assigned');
      expect(await t.deps.requests?.store.placeOf('r-line')).toBeUndefined();
      await t.outbox?.flush();
      await t.outbox?.flush();
      expect(dms(t, TEST_USERS.nobody).filter((s) => s.includes('it is yours'))).toHaveLength(1);
    },
  );

  it.skipIf(skip !== undefined)(
    'killed before the POST of a waitlist assignment: back in line at its place, nobody told a seat is theirs',
    async () => {
      const t = await app();
      // A full pool: the look at its seats that follows gives nothing away meanwhile.
      await leftInFlight(
        t.records as Records,
        { ...sampleRequest('r-wait'), status: 'waitlisted', poolId: '2003' },
        'waitlist',
        1,
      );
      t.sandbox.clearRequests();
      expect(await t.settler?.runOnce()).toBe(1);
      expect((await t.deps.requests?.store.get('r-wait'))?.status).toBe('waitlisted');
      expect(await t.deps.requests?.store.placeOf('r-wait')).toBe(1);
      await t.outbox?.flush();
      expect(dms(t, TEST_USERS.nobody).filter((s) => s.includes('yours'))).toEqual([]);
    },
  );

  it.skipIf(skip !== undefined)(
    'the answer of an approval lost and the read-back failing: the approver hears "being checked", then the truth, once',
    async () => {
      let clock = Date.now();
      const t = await app(() => new Date(clock));
      await t.deps.requests?.store.put(sampleRequest('r-lost'));
      t.sandbox.addFault({ kind: 'reset', method: 'POST', path: /\/license$/, phase: 'after', times: 1 });
      // The rules' read of the student passes; every read after it (the read-back) fails.
      t.sandbox.addFault({ kind: '500', method: 'GET', path: /\/v1\/student/, rate: 0.95 });
      t.sandbox.clearRequests();
      const outcome = await t.deps.requests?.service.approve('r-lost', TEST_USERS.admin);
      expect(outcome?.kind).toBe('not-assigned');
      expect(outcome && buildRequestDecisionMessage(outcome).text).toContain('is being checked');
      expect((await t.deps.requests?.store.get('r-lost'))?.status).toBe('assigning');
      // Add to the waitlist, Cancel and Deny meanwhile are told what is happening and change nothing.
      const queued = await t.deps.requests?.service.toWaitlist('r-lost', TEST_USERS.admin);
      expect(queued).toEqual({ kind: 'assigning' });
      expect(await t.deps.requests?.service.deny('r-lost', TEST_USERS.admin)).toMatchObject({ kind: 'already' });
      // The licensing service answers again; the check reads back once the write is 2 minutes old.
      t.sandbox.clearFaults();
      expect(await t.deps.requests?.check.tick()).toMatchObject({ reminded: 0 });
      expect((await t.deps.requests?.store.get('r-lost'))?.status).toBe('assigning');
      clock += 3 * 60_000;
      expect(await t.deps.requests?.check.tick()).toMatchObject({ settled: 1 });
      expect((await t.deps.requests?.store.get('r-lost'))?.status).toBe('assigned');
      expect(posts(t)).toHaveLength(1);
      await t.outbox?.flush();
      await t.deps.requests?.check.tick();
      await t.outbox?.flush();
      expect(dms(t, TEST_USERS.nobody).filter((s) => s.includes('is yours'))).toHaveLength(1);
      expect(dms(t, TEST_USERS.admin).filter((s) => s.includes('went through'))).toHaveLength(1);
    },
  );
});
