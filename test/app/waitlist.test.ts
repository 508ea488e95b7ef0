/**
 * The waitlist end to end: approved requests wait in line for the full pool 2003 of the sandbox;
 * a revoke in License Desk (a signed click), or one made directly at the licensing service and found
 * by the background check (tick()), gives the seat to the first in line: one POST at the sandbox and
 * DMs in the fake Slack. Approved requests are stored as the request service stores them and join
 * the line through the waitlist's API (the approval itself is driven end to end in
 * waitlist-requests.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ChangeActionId, WaitlistActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import { createDbRequestStore } from '../../src/requests/db/request-store.js';
import type { CourseRequest } from '../../src/requests/domain/requests.js';
import type { Waitlist } from '../../src/requests/services/waitlist.js';
import type { WaitlistWatch } from '../../src/requests/services/waitlist-watch.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { extendState, openModal, type ShownView, submit, writes } from '../support/change-flow.js';
import type { SlackCall } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { callSandbox } from '../support/sandbox.js';
import { until } from '../support/until.js';

const AUDIT = 'C0AUDIT001';
const POOL = '2003';
const U = {
  wendy: 'U0WAIT0001',
  walt: 'U0WAIT0002',
  nina: 'U0WAIT0003',
  olga: 'U0WAIT0004',
  pat: 'U0WAIT0005',
  quinn: 'U0WAIT0006',
  rita: 'U0WAIT0007',
} as const;
const EMAIL: Record<string, string> = {
  [U.wendy]: 'wendy.wait@contoso.com',
  [U.walt]: 'walt.wait@fabrikam.com',
  [U.nina]: 'nina.nope@acme-learning.example',
  [U.olga]: 'olga.ok@contoso.com',
  [U.pat]: 'pat.one@contoso.com',
  [U.quinn]: 'quinn.two@fabrikam.com',
  [U.rita]: 'rita.retry@contoso.com',
};

const t = appPerFile('desk-waitlist-', (dataDir) =>
  startTestApp({
    dataDir,
    auditChannel: AUDIT,
    slack: {
      users: Object.entries(EMAIL).map(([id, email]) => ({ id, name: email.split('@')[0] ?? id, email })),
    },
    waitlist: { offers: { hours: 0 } },
  }),
);

function waitlist(): Waitlist {
  if (!t.deps.waitlist) throw new Error('no waitlist');
  return t.deps.waitlist;
}
const running = {
  get watch(): WaitlistWatch {
    const watch = t.selfService?.watch;
    if (!watch) throw new Error('no background check');
    return watch;
  },
};
/** "Add to the waitlist" by the approver (status and rank in one step, the audit entry); its place. */
async function add(r: CourseRequest): Promise<number> {
  const joined = await t.deps.requests?.service.toWaitlist(r.id, TEST_USERS.admin);
  if (joined?.kind !== 'joined') throw new Error(`${r.id} could not join the line`);
  return joined.place;
}
/** An approved request for the full pool, stored as the request service stores it, ready to join the line. */
async function request(id: string, requester: string, poolId = POOL) {
  const r: CourseRequest = {
    id,
    requester,
    requesterEmail: EMAIL[requester] ?? '',
    poolId,
    courseTitle: 'Optimizing DAX',
    createdAt: new Date().toISOString(),
    status: 'approved',
    decidedBy: TEST_USERS.admin,
    decidedAt: new Date().toISOString(),
    source: 'command',
    cards: [],
  };
  await t.deps.requests?.store.put(r);
  return r;
}
const posts = () => t.sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.url);
const activeIn = (poolId: string) => (t.sandbox.inspect.licenses({ poolId }) ?? []).filter((l) => l.active);
const holds = (email: string) => activeIn(POOL).some((l) => l.student.email === email);
const dm = (user: string, predicate: (text: string) => boolean) =>
  t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === `D${user.slice(1)}` && predicate(allText(c.args.blocks)),
    15_000,
  );
const line = async () => (await waitlist().entries(POOL)).map((e) => e.requestId);

/** Frees one seat of the pool directly at the licensing service, outside License Desk. */
async function revokeAtTheService(): Promise<string> {
  const victim = activeIn(POOL).find((l) => !Object.values(EMAIL).includes(l.student.email));
  if (!victim) throw new Error('no seat left to free');
  expect((await callSandbox(t.sandbox, 'DELETE', `/v1/license/${victim.id}`)).status).toBe(200);
  return victim.id;
}

describe('waitlist', () => {
  it('a full pool: the first in line gets the seat a revoke in License Desk frees (one POST), and is told by DM', async () => {
    expect(t.sandbox.inspect.pool(POOL)?.availableLicenses).toBe(0);
    expect(await add(await request('R1', U.wendy))).toBe(1);
    expect(await add(await request('R2', U.walt))).toBe(2);

    // /licenses waitlist 2003: both, in order, with the admin's buttons.
    const shown = await (await t.command(`waitlist ${POOL}`)).waitForResponse();
    const text = allText(shown.body.blocks);
    expect(text.indexOf(`<@${U.wendy}>`)).toBeLessThan(text.indexOf(`<@${U.walt}>`));
    expect(buttons(shown.body).map((b) => b.action_id)).toContain(WaitlistActionId.remove);
    expect(checkBlockKitLimits(shown.body)).toEqual([]);

    const victim = activeIn(POOL)[0]?.id ?? '';
    // The confirmation already says where the seat will go.
    const confirm = await (await t.command(`revoke ${victim}`)).waitForResponse((p) =>
      allText(p.body.blocks).includes('Revoke license'),
    );
    expect(allText(confirm.body.blocks)).toContain('at once to the first person on its waitlist (2 wait)');
    t.sandbox.clearRequests();
    const told = dm(U.wendy, (s) => s.includes('it is yours'));
    const clicked = await t.clickButton(ChangeActionId.revokeConfirm, victim);
    const message = await told;
    // The revoking admin's (ephemeral) answer says who got the seat, not that it is back in the pool.
    const answer = allText(
      (await clicked.waitForResponse((p) => allText(p.body.blocks).includes('Revoked'))).body.blocks,
    );
    expect(answer).toContain(`The seat went to <@${U.wendy}> from the waitlist`);
    expect(answer).not.toContain('back in the pool');
    expect(allText(message.args.blocks)).toContain('Optimizing DAX');
    expect(posts()).toEqual([`/v1/pool/${POOL}/license`]);
    expect(holds(EMAIL[U.wendy] ?? '')).toBe(true);
    expect(await line()).toEqual(['R2']);
    // The approver hears it too.
    await dm(TEST_USERS.admin, (s) => s.includes(`<@${U.wendy}> got a freed seat`));
  });

  it('a seat freed outside License Desk is given by the background check, at most once per interval', async () => {
    await revokeAtTheService();
    t.sandbox.clearRequests();
    const told = dm(U.walt, (s) => s.includes('it is yours'));
    const round = await running.watch.tick();
    expect(round).toEqual({ ran: true, read: [POOL], withSeats: [POOL] });
    await told;
    expect(posts()).toEqual([`/v1/pool/${POOL}/license`]);
    expect(holds(EMAIL[U.walt] ?? '')).toBe(true);
    expect(await line()).toEqual([]);
    // The next round is not due for 15 minutes; forced, it reads nothing while nobody waits.
    t.sandbox.clearRequests();
    expect(await running.watch.tick()).toEqual({ ran: false, reason: 'not-due' });
    expect(await running.watch.tick({ force: true })).toEqual({ ran: false, reason: 'nobody-waits' });
    expect(t.sandbox.requests).toEqual([]);
  });

  it('a first assign that fails passes the seat to the next in line, and the approver is told why', async () => {
    await add(await request('R3', U.nina));
    await add(await request('R4', U.olga));
    await revokeAtTheService();
    t.sandbox.clearRequests();
    const why = dm(TEST_USERS.admin, (s) => s.includes(`<@${U.nina}> could not take the freed seat`));
    const result = await waitlist().seatFreed(POOL);
    expect(result.assigned.map((a) => a.entry.requestId)).toEqual(['R4']);
    expect(result.skipped.map((s) => s.entry.requestId)).toEqual(['R3']);
    expect(allText((await why).args.blocks)).toMatch(/domain is not allowed[\s\S]*next in line, <@U0WAIT0004>/);
    await dm(U.nina, (s) => s.includes('could not be assigned to you'));
    await dm(U.olga, (s) => s.includes('it is yours'));
    // The refused request was never sent: one POST, for the next in line.
    expect(posts()).toEqual([`/v1/pool/${POOL}/license`]);
    expect(holds(EMAIL[U.olga] ?? '')).toBe(true);
    expect(await line()).toEqual([]);
  });

  it('two seatFreed at once give one freed seat once', async () => {
    await add(await request('R5', U.pat));
    await add(await request('R6', U.quinn));
    await revokeAtTheService();
    t.sandbox.clearRequests();
    const [a, b] = await Promise.all([waitlist().seatFreed(POOL), waitlist().seatFreed(POOL)]);
    expect([...a.assigned, ...b.assigned].map((x) => x.entry.requestId)).toEqual(['R5']);
    expect(posts()).toEqual([`/v1/pool/${POOL}/license`]);
    expect(t.sandbox.inspect.pool(POOL)?.availableLicenses).toBe(0);
    expect(await line()).toEqual(['R6']);
  });

  it('audit channel posts carry license_desk_audit message metadata', async () => {
    const isAudit = (action: string) => (c: SlackCall) =>
      c.args.channel === AUDIT &&
      (c.args.metadata as { event_payload?: { action?: string } } | undefined)?.event_payload?.action === action;
    const assigned = await t.slack.waitForCall('chat.postMessage', isAudit('assigned'), 10_000);
    const license = activeIn(POOL).find((l) => l.student.email === EMAIL[U.wendy]);
    expect(assigned.args.metadata).toEqual({
      event_type: 'license_desk_audit',
      event_payload: {
        action: 'assigned',
        license_id: license?.id,
        pool_id: POOL,
        actor: TEST_USERS.admin,
        outcome: 'done',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    const revoke = await t.slack.waitForCall('chat.postMessage', isAudit('revoke'), 10_000);
    expect(revoke.args.metadata).toMatchObject({
      event_type: 'license_desk_audit',
      event_payload: { action: 'revoke', pool_id: POOL, actor: TEST_USERS.admin, outcome: 'done' },
    });
    // No student data in the metadata, which any app reading the channel can see.
    expect(JSON.stringify(assigned.args.metadata)).not.toContain('@');
    await t.slack.waitForCall('chat.postMessage', isAudit('waitlisted'), 10_000);
  });

  it('App Home shows admins the line; Move down reorders it, a viewer’s click changes nothing', async () => {
    await add(await request('R7', U.olga));
    expect(await line()).toEqual(['R6', 'R7']);
    const before = t.slack.calls.length;
    await t.event({ type: 'app_home_opened', user: TEST_USERS.admin, channel: 'D0HOME0001', tab: 'home' });
    const home = await t.slack.waitForCall(
      'views.publish',
      (c) => t.slack.calls.indexOf(c) >= before && allText(c.args.view).includes('Waitlist'),
      10_000,
    );
    expect(checkBlockKitLimits(home.args.view, 'view')).toEqual([]);
    // Slack shows "waiting since today at 9:48 AM" (or "Nov 25, 2026 at 9:48 AM"), as Home's "Updated" reads.
    expect(allText(home.args.view)).toMatch(/waiting since <!date\^\d+\^\{date_short_pretty\} at \{time\}\|/);
    const down = buttons(home.args.view).find((b) => b.action_id === WaitlistActionId.moveDown);
    expect(down).toBeDefined();

    // A viewer's forged click: refused, the line unchanged.
    const refused = await t.clickButton(WaitlistActionId.moveDown, String(down?.value), { userId: TEST_USERS.viewer });
    expect(allText((await refused.waitForResponse()).body.blocks)).toContain('Only license admins');
    expect(await line()).toEqual(['R6', 'R7']);

    // The admin's click from the Home tab (no response_url): reordered, the Home published again.
    const republished = t.slack.calls.length;
    await t.action({
      container: { type: 'view', view_id: 'V0HOME0001' },
      response_url: undefined,
      actions: [{ action_id: WaitlistActionId.moveDown, block_id: 'b', type: 'button', value: down?.value }],
    });
    await t.slack.waitForCall(
      'views.publish',
      (c) => t.slack.calls.indexOf(c) >= republished && allText(c.args.view).includes('Waitlist'),
      10_000,
    );
    expect(await line()).toEqual(['R7', 'R6']);

    // A viewer sees the list without buttons.
    const viewer = await (await t.command('waitlist', { userId: TEST_USERS.viewer })).waitForResponse();
    expect(allText(viewer.body.blocks)).toContain(`<@${U.olga}>`);
    expect(buttons(viewer.body)).toEqual([]);
  });

  it('Remove takes a request out of the line; the line survives a restart', async () => {
    const shown = await (await t.command('waitlist')).waitForResponse();
    const remove = buttons(shown.body).find((b) => b.action_id === WaitlistActionId.remove);
    expect(remove).toBeDefined();
    const clicked = await t.clickButton(WaitlistActionId.remove, String(remove?.value));
    const after = await clicked.waitForResponse();
    expect(allText(after.body.blocks)).toContain('Removed the request');
    expect(await line()).toEqual(['R6']);
    // A new process over the same records reads the same line (the ranks of the waitlisted requests).
    const records = t.records;
    if (!records) throw new Error('no records');
    const again = await createDbRequestStore({
      db: records.db,
      dialect: records.dialect,
      now: () => new Date(),
    }).lines();
    expect(again[POOL]?.map((e) => e.requestId)).toEqual(['R6']);
    expect((await t.deps.requests?.store.get('R7'))?.status).toBe('denied');
  });

  it('an end date moved into the past in License Desk frees the seat for the first in line', async () => {
    const license = activeIn(POOL).find((l) => !Object.values(EMAIL).includes(l.student.email));
    const view = await openModal(t, () => t.command(`extend ${license?.id}`));
    const past = new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10);
    const { ack } = await submit(t, view, extendState({ date: past }));
    const confirm = ack.view as ShownView;
    t.sandbox.clearRequests();
    const told = dm(U.quinn, (s) => s.includes('it is yours'));
    await submit(t, { ...confirm, id: view.id }, { values: {} });
    await told;
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual([
      `PATCH /v1/license/${license?.id}`,
      `POST /v1/pool/${POOL}/license`,
    ]);
    expect(holds(EMAIL[U.quinn] ?? '')).toBe(true);
    expect(await line()).toEqual([]);
  });

  it('a pool that has ended frees no seat: its line is closed and nobody is told "a seat freed up"', async () => {
    const ENDED = '2006';
    expect(t.sandbox.inspect.pool(ENDED)?.availableLicenses).toBeGreaterThan(0);
    await add(await request('R8', U.pat, ENDED));
    await add(await request('R9', U.olga, ENDED));
    t.sandbox.clearRequests();
    const approverDms = () =>
      t.slack.calls.filter(
        (c) => c.method === 'chat.postMessage' && c.args.channel === `D${TEST_USERS.admin.slice(1)}`,
      );
    // Messages queued by the steps before are sent first: only this round's count below.
    await t.outbox?.flush();
    const seen = approverDms().length;
    const toPat = dm(U.pat, (s) => s.includes('has ended'));
    const toOlga = dm(U.olga, (s) => s.includes('has ended'));
    // A round now; on a busy machine the check an earlier step began may still run: then the next one.
    await until('a round of the waitlist check', async () => {
      const round = await running.watch.tick({ force: true });
      return round.ran || round.reason !== 'busy';
    });
    for (const told of [await toPat, await toOlga]) {
      const text = allText(told.args.blocks);
      expect(text).toContain('Pool `2006`');
      expect(text).toContain('no seat will free up');
      expect(text).not.toMatch(/seat freed up|freed seat/);
    }
    await until('two more DMs to the approver', () => approverDms().length >= seen + 2);
    const toApprover = approverDms()
      .slice(seen)
      .map((c) => allText(c.args.blocks));
    expect(toApprover).toHaveLength(2);
    for (const text of toApprover) {
      expect(text).toContain('has ended, so no seat will free up in it for anybody');
      expect(text).not.toMatch(/freed seat|next in line|stays free/);
    }
    expect(posts()).toEqual([]);
    expect(await waitlist().entries(ENDED)).toEqual([]);
    const closed = await t.deps.requests?.store.get('R8');
    expect(closed?.status).toBe('denied');
    expect(closed?.denyReason).not.toContain('freed up');
  });

  it('a seat the first in line could not get yet: the revoke says who is first, not that the seat is theirs or back in the pool', async () => {
    await add(await request('R10', U.rita));
    const victim = activeIn(POOL).find((l) => !Object.values(EMAIL).includes(l.student.email))?.id ?? '';
    t.sandbox.addFault({ kind: '500', method: 'POST', times: 10 });
    const clicked = await t.clickButton(ChangeActionId.revokeConfirm, victim);
    const answer = allText(
      (await clicked.waitForResponse((p) => allText(p.body.blocks).includes('Revoked'))).body.blocks,
    );
    t.sandbox.clearFaults();
    expect(answer).toContain(`<@${U.rita}> is first on the waitlist for this pool but does not have the seat yet`);
    expect(answer).not.toMatch(/back in the pool|seat went to/);
    expect(await line()).toEqual(['R10']);
    // The next round gives it.
    const told = dm(U.rita, (s) => s.includes('it is yours'));
    expect((await waitlist().seatFreed(POOL)).assigned.map((a) => a.entry.requestId)).toEqual(['R10']);
    await told;
  });

  it('bad input: a malformed pool id gets the help with the reason; a forged button value changes nothing', async () => {
    const bad = await (await t.command('waitlist <2003>')).waitForResponse();
    expect(allText(bad.body.blocks)).toContain('is not a pool id');
    const forged = await t.clickButton(WaitlistActionId.remove, '{"r":"<!channel>"}');
    expect(allText((await forged.waitForResponse()).body.blocks)).toContain('no longer works');
    expect(await line()).toEqual([]);
  });
});
