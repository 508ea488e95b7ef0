/**
 * Leavers when things go wrong: the licensing service failing a read or the DELETE at
 * the grace's end, a license ended by someone else during the grace, a return a killed process left
 * `returning`, and lookups that fail while a deactivation comes in. Driven as leavers.test.ts drives
 * the feature: signed `user_change` events, the sandbox as the licensing API (with its fault rules), the
 * fake Slack recording the alert channel, and the app's clock moved past the grace.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Records } from '../../src/kernel/db/open.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { License } from '../../src/kernel/domain/types.js';
import { createLeaverHolds } from '../../src/leavers/db/holds.js';
import { startReplica, startTestApp, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { settableClock } from '../support/clock.js';
import { holderInSlack, type SlackCall } from '../support/fake-slack.js';
import { callText } from '../support/fixtures.js';
import { deactivate, pickHolder } from '../support/leavers.js';
import { callSandbox } from '../support/sandbox.js';
import { until } from '../support/until.js';

const ALERTS = 'C0ALERTS01';

describe('leavers: outages and races', () => {
  const { c: clock, now } = settableClock();
  const t = appPerFile('desk-leavers-outages-', (dataDir) =>
    startTestApp({ dataDir, now, waitlist: { offers: { hours: 0 } }, leavers: { channel: ALERTS } }),
  );
  const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS);
  const deletes = () => t.sandbox.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);
  const logged = (words: string) => t.logs.some((l) => String(l.msg ?? l.message).includes(words));
  const store = () => createLeaverHolds(t.records as NonNullable<typeof t.records>);
  const t0 = clock.t;
  const used: string[] = [];
  let n = 0;
  const told = (id: string) => posts().some((p) => callText(p).includes(`<@${id}> left the workspace`));

  /** A holder not used yet whose licenses run long, all in transferable pools. */
  function freshHolder(): License[] {
    let ls: License[];
    try {
      ls = pickHolder(t, t0, '2001', undefined, used, ['2002']);
    } catch {
      ls = pickHolder(t, t0, '2003', undefined, used, ['2002']);
    }
    used.push((ls[0] as License).student.email);
    return ls;
  }

  /** A fresh holder (transferable pools only) deactivated now, told in the alert channel. */
  async function leaverHeld(): Promise<License[]> {
    const ls = freshHolder();
    const first = ls[0] as License;
    const id = `U0OUT${String(++n).padStart(5, '0')}`;
    holderInSlack(t.slack, id, first);
    await deactivate(t, id, first.student.email);
    await t.settled();
    await until('the hold is told', () => told(id));
    await t.outbox?.flush();
    return ls;
  }
  /** The clock past the grace; the sandbox's request log emptied. */
  function graceOver() {
    clock.t += 7 * DAY_MS + 60_000;
    t.sandbox.clearRequests();
  }
  /** Someone else ends these licenses in the licensing service (its limit waited out). */
  async function endedElsewhere(ls: License[]) {
    for (const l of ls)
      await until(`license ${l.id} ended`, async () => {
        if (t.sandbox.inspect.license(l.id)?.active === false) return true;
        await callSandbox(t.sandbox, 'DELETE', `/v1/license/${l.id}`);
        return false;
      });
  }
  const licensePath = (ls: License[]) => new RegExp(`^/v1/license/(${ls.map((l) => l.id).join('|')})$`);

  it('the fresh read fails at the grace’s end: nothing is sent, the next run returns each seat once', async () => {
    const ls = await leaverHeld();
    graceOver();
    t.sandbox.addFault({ kind: '500', method: 'GET', path: licensePath(ls) });
    expect(await t.leavers?.runReturns()).toMatchObject({ returned: 0, failed: 0, later: ls.length });
    t.sandbox.clearFaults();
    expect(deletes()).toEqual([]);
    expect((await store().due(now(), 50)).map((r) => r.license_id).sort()).toEqual(ls.map((l) => l.id).sort());

    expect(await t.leavers?.runReturns()).toMatchObject({ returned: ls.length, later: 0 });
    expect(deletes().sort()).toEqual(ls.map((l) => `/v1/license/${l.id}`).sort());
    for (const l of ls) expect(t.sandbox.inspect.license(l.id)?.active).toBe(false);
  });

  it('the DELETE fails: the hold ends failed, the alert channel says the seats stay taken, nothing is sent again', async () => {
    const ls = await leaverHeld();
    graceOver();
    const before = posts().length;
    t.sandbox.addFault({ kind: '500', method: 'DELETE', path: licensePath(ls) });
    expect(await t.leavers?.runReturns()).toMatchObject({ returned: 0, failed: ls.length });
    t.sandbox.clearFaults();
    for (const l of ls) expect(t.sandbox.inspect.license(l.id)?.active).toBe(true);
    await t.settled();
    await until('the returns post', () => posts().length === before + 1);
    const post = callText(posts().at(-1) as SlackCall);
    expect(post).toContain(`${ls.length} return${ls.length === 1 ? '' : 's'} did not go through; the seats stay taken`);
    for (const l of ls) expect(post).toContain(l.id);
    const sent = deletes().length;
    expect(sent).toBe(ls.length);

    expect(await t.leavers?.runReturns()).toMatchObject({ returned: 0, failed: 0 });
    await t.settled();
    expect(deletes()).toHaveLength(sent);
    expect(posts()).toHaveLength(before + 1);
  });

  it('a license ended by someone else during the grace is gone: no DELETE, no post', async () => {
    const ls = await leaverHeld();
    await endedElsewhere(ls);
    graceOver();
    const before = posts().length;
    expect(await t.leavers?.runReturns()).toMatchObject({ returned: 0, failed: 0, gone: ls.length });
    await t.settled();
    expect(deletes()).toEqual([]);
    expect(posts()).toHaveLength(before);
    expect(await store().due(now(), 50)).toEqual([]);
  });

  it('a return a killed process left is read back: a license still active is sent once, one ended by someone else is gone', async () => {
    const active = await leaverHeld();
    const ended = await leaverHeld();
    graceOver();
    // The other process claimed every return, then died before sending any.
    for (const l of [...active, ...ended]) expect(await store().claim(l.id, 'killed-replica:1', now())).toBe(true);
    await endedElsewhere(ended);
    t.sandbox.clearRequests();

    const run = await t.leavers?.runReturns();
    expect(run).toMatchObject({
      readBack: active.length + ended.length,
      returned: active.length,
      gone: ended.length,
      failed: 0,
    });
    expect(deletes().sort()).toEqual(active.map((l) => `/v1/license/${l.id}`).sort());
    // Nothing is left returning: the next run sends nothing.
    expect(await t.leavers?.runReturns()).toMatchObject({ readBack: 0, returned: 0 });
    expect(deletes()).toHaveLength(active.length);
  });

  it('a return whose answer was lost and could not be read back is read back by the next run, not sent again', async () => {
    const ls = await leaverHeld();
    const [lost] = ls as [License];
    const path = licensePath([lost]);
    graceOver();
    // The DELETE is applied but its answer lost; while it is under way the license can no longer be read.
    t.sandbox.addFault({ kind: 'latency', method: 'DELETE', path, latencyMs: 300, times: 1 });
    t.sandbox.addFault({ kind: 'reset', phase: 'after', method: 'DELETE', path, times: 1 });
    const first = t.leavers?.runReturns();
    await until('the DELETE is under way', () => deletes().includes(`/v1/license/${lost.id}`));
    t.sandbox.addFault({ kind: '500', method: 'GET', path });
    expect(await first).toMatchObject({ returned: ls.length - 1, later: 1, failed: 0 });
    t.sandbox.clearFaults();
    expect(t.sandbox.inspect.license(lost.id)?.active).toBe(false);

    // This process's next run sends nothing: its revoke's intent is open until a restart settles it.
    expect(await t.leavers?.runReturns()).toMatchObject({ readBack: 1, returned: 0, later: 1 });
    // After a restart (another process on the same records): the intent settled, the return read back
    // as done, with no second DELETE.
    const b = await startReplica(t, t.records as Records, { now, leavers: { channel: ALERTS } });
    onTestFinished(() => b.close());
    expect(await b.leavers?.runReturns()).toMatchObject({ readBack: 1, returned: 1, gone: 0 });
    expect(deletes().filter((u) => u === `/v1/license/${lost.id}`)).toHaveLength(1);
    expect(await t.leavers?.runReturns()).toMatchObject({ readBack: 0, returned: 0 });
  });

  it('a license that runs out during the grace is gone at its end: no DELETE', async () => {
    const soon = t.sandbox.inspect
      .licenses()
      .filter((l) => l.active && !used.includes(l.student.email) && Date.parse(l.end) > clock.t + DAY_MS)
      .sort((x, y) => Date.parse(x.end) - Date.parse(y.end))[0] as License;
    used.push(soon.student.email);
    // Deactivated three days before the license's end.
    clock.t = Date.parse(soon.end) - 3 * DAY_MS;
    holderInSlack(t.slack, 'U0OUTSOON1', soon);
    await deactivate(t, 'U0OUTSOON1', soon.student.email);
    await t.settled();
    expect((await store().heldOf(soon.student.email)).map((h) => h.license_id)).toContain(soon.id);
    graceOver();
    const run = await t.leavers?.runReturns();
    expect(run?.gone).toBeGreaterThanOrEqual(1);
    expect(deletes()).not.toContain(`/v1/license/${soon.id}`);
  });

  it('the student lookup fails while a deactivation comes in: logged, nothing held; the next deactivation holds', async () => {
    const ls = freshHolder();
    const first = ls[0] as License;
    holderInSlack(t.slack, 'U0OUTSTU01', first);
    t.sandbox.addFault({ kind: '500', method: 'GET', path: /^\/v1\/student/ });
    await deactivate(t, 'U0OUTSTU01', first.student.email);
    await t.settled();
    t.sandbox.clearFaults();
    expect(logged('could not read the licenses of a deactivated member')).toBe(true);
    expect(await store().heldOf(first.student.email)).toEqual([]);
    await t.outbox?.flush();
    expect(told('U0OUTSTU01')).toBe(false);

    await deactivate(t, 'U0OUTSTU01', first.student.email);
    await t.settled();
    expect((await store().heldOf(first.student.email)).map((h) => h.license_id).sort()).toEqual(
      ls.map((l) => l.id).sort(),
    );
  });

  it('a member whose licenses all ended holds nothing; one Slack cannot give an e-mail for holds nothing either', async () => {
    const ls = freshHolder();
    const first = ls[0] as License;
    await endedElsewhere(ls);
    const before = posts().length;
    await deactivate(t, 'U0OUTEND01', first.student.email);
    // Slack knows no such member: users.info fails, and the event's profile had no e-mail.
    await deactivate(t, 'U0NOBODY01');
    await t.settled();
    await t.outbox?.flush();
    expect(posts()).toHaveLength(before);
    expect(await store().heldOf(first.student.email)).toEqual([]);
    expect(t.logs.some((l) => l.reason === 'no-license')).toBe(true);
    expect(logged('users.info failed for a deactivated member')).toBe(true);
    expect(logged('a deactivated member without an e-mail')).toBe(true);
  });
});

describe('leavers: LEAVER_GRACE_DAYS=0, no alert channel, two replicas', () => {
  const { c: clock, now } = settableClock();
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ now, waitlist: {}, leavers: { graceDays: 0 } });
    b = await startReplica(a, a.records as Records, { now, waitlist: {}, leavers: { graceDays: 0 } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  const held = (email: string) => createLeaverHolds(a.records as Records).heldOf(email);

  it('a pool read failing at the deactivation holds nothing; held at the next, due at once, each seat returned once by the two replicas, nothing posted', async () => {
    const long = pickHolder(a, clock.t, '2003', undefined, [], ['2001', '2002']);
    const first = long[0] as License;
    // A seat of the untransferable pool too: only listed.
    const ls = [
      ...long,
      await a.licensing.pools.assign('2002', { email: first.student.email, name: first.student.name }),
    ];
    holderInSlack(a.slack, 'U0ZERO0001', first);
    a.sandbox.addFault({ kind: '500', method: 'GET', path: /^\/v1\/pool\/2003$/ });
    await deactivate(a, 'U0ZERO0001', first.student.email);
    await a.settled();
    a.sandbox.clearFaults();
    expect(await held(first.student.email)).toEqual([]);
    expect(a.logs.some((l) => String(l.msg ?? l.message).includes('could not read the licenses'))).toBe(true);

    await deactivate(a, 'U0ZERO0001', first.student.email);
    await a.settled();
    expect((await held(first.student.email)).map((h) => h.license_id).sort()).toEqual(ls.map((l) => l.id).sort());
    a.sandbox.clearRequests();
    // Both replicas run the returns at once: each seat is sent (or listed) once.
    const runs = await Promise.all([a.leavers?.runReturns(), b.leavers?.runReturns()]);
    const sum = (k: 'returned' | 'listed' | 'failed') => runs.reduce((s, r) => s + (r?.[k] ?? 0), 0);
    const transferable = ls.filter((l) => l.poolId !== '2002');
    expect(sum('returned')).toBe(transferable.length);
    expect(sum('listed')).toBe(ls.length - transferable.length);
    expect(sum('failed')).toBe(0);
    expect(
      a.sandbox.requests
        .filter((r) => r.method === 'DELETE')
        .map((r) => r.url)
        .sort(),
    ).toEqual(transferable.map((l) => `/v1/license/${l.id}`).sort());
    await a.settled();
    await a.outbox?.flush();
    expect(a.slack.calls.filter((c) => c.method === 'chat.postMessage')).toEqual([]);
  });
});
