/**
 * The waitlist with DATABASE_URL: two app instances (replicas) over one sandbox, one fake Slack and
 * one PostgreSQL database share the lines, and a seat freed while both try to give it is given once,
 * its requester told once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Waitlist } from '../../src/requests/services/waitlist.js';
import { startReplica, startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { allText } from '../support/fixtures.js';
import { testDatabases } from '../support/records.js';
import { joinWaitlist, selfServiceTo } from '../support/requests.js';
import { callSandbox } from '../support/sandbox.js';

const POOL = '2003';
const USERS = [
  { id: 'U0RWAIT001', name: 'rita.one', email: 'rita.one@contoso.com' },
  { id: 'U0RWAIT002', name: 'rob.two', email: 'rob.two@fabrikam.com' },
];
const postgres = testDatabases().find((d) => d.dialect === 'postgres');

describe.skipIf(postgres?.skip !== undefined)('waitlist shared through PostgreSQL', () => {
  let db: Awaited<ReturnType<NonNullable<typeof postgres>['open']>>;
  let a: TestApp;
  let b: TestApp;
  const waitlistOf = (t: TestApp): Waitlist => {
    if (!t.deps.waitlist) throw new Error('no waitlist');
    return t.deps.waitlist;
  };
  /** An approved request for the full pool, joined to the line by one replica's approver click. */
  const join = (t: TestApp, id: string, requester: string, email: string) =>
    joinWaitlist(t, id, { id: requester, email }, POOL);

  beforeAll(async () => {
    db = await (postgres as NonNullable<typeof postgres>).open();
    const selfService = selfServiceTo();
    a = await startTestApp({ slack: { users: USERS }, records: db.records, ...selfService });
    b = await startReplica(a, db.records, selfService);
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await db?.close();
  });

  it('one replica queues, the other sees the line; a seat both try to give at once is given once', async () => {
    const places = [];
    for (const [i, u] of USERS.entries()) {
      places.push(await join(i === 0 ? a : b, `RR${i + 1}`, u.id, u.email));
    }
    expect(places).toEqual([
      { kind: 'joined', place: 1 },
      { kind: 'joined', place: 2 },
    ]);
    expect((await waitlistOf(b).entries(POOL)).map((e) => `${e.place}:${e.requestId}`)).toEqual(['1:RR1', '2:RR2']);

    const victim = a.sandbox.inspect.licenses({ poolId: POOL }).find((l) => l.active);
    expect((await callSandbox(a.sandbox, 'DELETE', `/v1/license/${victim?.id}`)).status).toBe(200);
    a.sandbox.clearRequests();
    const [ra, rb] = await Promise.all([waitlistOf(a).seatFreed(POOL), waitlistOf(b).seatFreed(POOL)]);
    expect([...ra.assigned, ...rb.assigned].map((x) => x.entry.requestId)).toEqual(['RR1']);
    expect(a.sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      `/v1/pool/${POOL}/license`,
    ]);
    expect((await waitlistOf(a).entries()).map((e) => e.requestId)).toEqual(['RR2']);
    await Promise.all([a.outbox?.flush(), b.outbox?.flush()]);
    const told = a.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === 'D0RWAIT001' &&
        allText(c.args.blocks).includes('it is yours'),
    );
    expect(told).toHaveLength(1);

    // A reorder by one is seen by the other.
    await join(b, 'RR3', TEST_USERS.student, 'sam.student@contoso.com');
    await waitlistOf(a).move('RR3', 0, TEST_USERS.admin);
    expect((await waitlistOf(b).entries(POOL)).map((e) => e.requestId)).toEqual(['RR3', 'RR2']);
  });
});
