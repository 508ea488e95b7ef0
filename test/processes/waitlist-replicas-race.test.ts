/**
 * Two replicas hand on the same freed seat (DATABASE_URL: two app instances over one sandbox, one fake
 * Slack and one PostgreSQL database). Replica B's round asks Slack about the first in line (users.info,
 * held at a proxy in front of the fake Slack) while replica A gives that person the seat. B lost a
 * race, nothing failed: the audit trail has A's one "assigned", and no "assign failed" row from B.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Waitlist } from '../../src/requests/services/waitlist.js';
import { startReplica, startTestApp, type TestApp } from '../support/app-harness.js';
import { type HoldingProxy, startHoldingProxy } from '../support/kill-restart.js';
import { testDatabases } from '../support/records.js';
import { joinWaitlist, selfServiceTo } from '../support/requests.js';
import { callSandbox } from '../support/sandbox.js';
import { until } from '../support/until.js';

const POOL = '2003';
const USERS = [{ id: 'U0RACE0001', name: 'rena.race', email: 'rena.race@contoso.com' }];
const postgres = testDatabases().find((d) => d.dialect === 'postgres');

describe.skipIf(postgres?.skip !== undefined)('two replicas hand on one seat', () => {
  let db: Awaited<ReturnType<NonNullable<typeof postgres>['open']>>;
  let a: TestApp;
  let b: TestApp;
  let slackProxy: HoldingProxy;
  const waitlistOf = (t: TestApp): Waitlist => {
    if (!t.deps.waitlist) throw new Error('no waitlist');
    return t.deps.waitlist;
  };

  beforeAll(async () => {
    db = await (postgres as NonNullable<typeof postgres>).open();
    const selfService = selfServiceTo();
    a = await startTestApp({ slack: { users: USERS }, records: db.records, ...selfService });
    // Replica B talks to the same fake Slack through a proxy that can hold one of its calls.
    slackProxy = await startHoldingProxy(a.slack.url);
    b = await startReplica(a, db.records, {
      useSlack: Object.assign(Object.create(a.slack) as typeof a.slack, { apiUrl: `${slackProxy.url}/api/` }),
      ...selfService,
    });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await slackProxy?.close();
    await db?.close();
  });

  it('the replica that lost the race audits no failure; the seat is given once', async () => {
    const [u] = USERS;
    if (!u) throw new Error('no user');
    expect(await joinWaitlist(a, 'RACE1', u, POOL)).toMatchObject({ kind: 'joined' });
    const victim = a.sandbox.inspect.licenses({ poolId: POOL }).find((l) => l.active);
    expect((await callSandbox(a.sandbox, 'DELETE', `/v1/license/${victim?.id}`)).status).toBe(200);
    a.sandbox.clearRequests();

    // B's round reads the free seat and the line, then asks Slack about the requester: held there.
    const hold = slackProxy.hold({ method: 'POST', path: /^\/api\/users\.info$/, phase: 'before' });
    const fromB = waitlistOf(b).seatFreed(POOL);
    await until('replica B to ask Slack about the requester', () => hold.request !== undefined, 15_000);
    // Meanwhile A gives the seat.
    const fromA = await waitlistOf(a).seatFreed(POOL);
    expect(fromA.assigned.map((x) => x.entry.requestId)).toEqual(['RACE1']);
    hold.release();
    const lost = await fromB;
    expect(lost.assigned).toEqual([]);
    expect(lost.skipped).toEqual([]);

    expect(a.sandbox.requests.filter((q) => q.method === 'POST').map((q) => q.url)).toEqual([
      `/v1/pool/${POOL}/license`,
    ]);
    const rows = await db.records.db
      .selectFrom('audit')
      .select(['action', 'outcome', 'requester'])
      .where('requester', '=', u.id)
      .where('action', '=', 'assigned')
      .execute();
    expect(rows).toEqual([{ action: 'assigned', outcome: 'done', requester: u.id }]);
    expect((await a.deps.requests?.store.get('RACE1'))?.status).toBe('assigned');
  });
});
