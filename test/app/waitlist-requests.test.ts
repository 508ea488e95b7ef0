/**
 * Course requests and the waitlist as one feature, end to end: members ask for the full pool 2003
 * (signed form submissions), a license admin approves and chooses the waitlist (signed clicks), and a
 * freed seat (a revoke in License Desk, or one made directly at the licensing service and found by
 * the background check's tick()) goes to the first request in line through the requests' assign: one
 * POST at the sandbox, the request assigned, the requester and the approver told by DM, the card
 * updated. A request that can never take the seat passes it on, and the approver is told why.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeActionId, RequestActionId, WaitlistActionId } from '../../src/kernel/blocks/ids.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { dmChannel } from '../support/dms.js';
import type { SlackCall } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { clickInRequestsChannel, poolOnlyRequestView, selfServiceTo } from '../support/requests.js';
import { callSandbox } from '../support/sandbox.js';

const CHANNEL = 'C0REQUESTS1';
const POOL = '2003';
const ADMIN = TEST_USERS.admin;
const U = {
  ada: { id: 'U0WQADA001', name: 'ada.wait', email: 'ada.wait@contoso.com' },
  ben: { id: 'U0WQBEN001', name: 'ben.later', email: 'ben.later@fabrikam.com' },
  cyd: { id: 'U0WQCYD001', name: 'cyd.out', email: 'cyd.out@acme-learning.example' },
  eve: { id: 'U0WQEVE001', name: 'eve.gone', email: 'eve.gone@contoso.com' },
  dot: { id: 'U0WQDOT001', name: 'dot.next', email: 'dot.next@contoso.com' },
} as const;
const OURS = Object.values(U).map((u) => u.email as string);

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waitlist-requests-'));
  t = await startTestApp({
    admins: [ADMIN, TEST_USERS.workspaceAdmin],
    slack: { users: Object.values(U).map((u) => ({ ...u })) },
    ...selfServiceTo(CHANNEL),
  });
});

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const dm = (user: string, predicate: (text: string) => boolean) =>
  t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === dmChannel(user) && predicate(allText(c.args.blocks)),
  );
const dmsTo = (user: string, words: string) =>
  t.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' && c.args.channel === dmChannel(user) && allText(c.args.blocks).includes(words),
  );
const posts = () => t.sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.url);
const activeIn = () => t.sandbox.inspect.licenses({ poolId: POOL }).filter((l) => l.active);
const holds = (email: string) => activeIn().some((l) => l.student.email === email);
const statusOf = async (id: string) => (await t.deps.requests?.store.get(id))?.status;
const line = async () => (await t.deps.waitlist?.entries(POOL))?.map((e) => e.requestId);

/** A seat of the pool that none of our requesters holds. */
function victim(): string {
  const license = activeIn().find((l) => l.revokable && !OURS.includes(l.student.email));
  if (!license) throw new Error('no seat left to free');
  return license.id;
}

const click = (actionId: string, value: string, userId: string) =>
  clickInRequestsChannel(t, { channel: CHANNEL, ts: '1767225600.000300' }, actionId, value, userId);

/**
 * `user` asks for the full pool through the form, an admin approves and chooses the waitlist: the
 * request id and what the admin was told at each click.
 */
async function waitlistedRequest(user: string): Promise<{ id: string; choice: string; added: string }> {
  await t.viewSubmission({ view: poolOnlyRequestView(`VWQ${user}`, POOL, 'command') }, { userId: user });
  const card = await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === CHANNEL && allText(c.args.blocks).includes(`<@${user}>`),
  );
  await dm(user, (s) => s.includes('was received'));
  const id = String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
  const choice = await (await click(RequestActionId.approve, id, ADMIN)).waitForResponse();
  const added = await (await click(RequestActionId.waitlist, id, ADMIN)).waitForResponse();
  return { id, choice: allText(choice.body.blocks), added: allText(added.body.blocks) };
}

const cardUpdate = (user: string, words: string) =>
  t.slack.waitForCall(
    'chat.update',
    (c: SlackCall) =>
      c.args.channel === CHANNEL &&
      allText(c.args.blocks).includes(`<@${user}>`) &&
      allText(c.args.blocks).includes(words),
  );

describe('course requests meet the waitlist', () => {
  let adaRequest = '';

  it('approving a request for a full pool and choosing the waitlist puts it in line, and the requester is told the place', async () => {
    t.sandbox.clearRequests();
    const { id, choice, added } = await waitlistedRequest(U.ada.id);
    adaRequest = id;
    expect(choice).toContain('is full');
    expect(added).toContain('On the waitlist, number 1');
    await dm(U.ada.id, (s) => s.includes('you are on the waitlist, number 1'));
    expect(await statusOf(id)).toBe('waitlisted');
    expect(await line()).toEqual([id]);
    // Nothing was assigned yet.
    expect(posts()).toEqual([]);
    // /licenses waitlist shows the request to admins.
    const shown = await (await t.command(`waitlist ${POOL}`)).waitForResponse();
    expect(allText(shown.body.blocks)).toContain(`<@${U.ada.id}>`);
  });

  it('a revoke in License Desk gives the seat to the waitlisted request: one POST, the request assigned, requester and approver told', async () => {
    t.sandbox.clearRequests();
    const told = dm(U.ada.id, (s) => s.includes('it is yours'));
    const approverTold = dm(ADMIN, (s) => s.includes(`<@${U.ada.id}> got a freed seat`));
    const seat = victim();
    await t.clickButton(ChangeActionId.revokeConfirm, seat);
    const message = allText((await told).args.blocks);
    await approverTold;
    expect(posts()).toEqual([`/v1/pool/${POOL}/license`]);
    expect(holds(U.ada.email)).toBe(true);
    const request = await t.deps.requests?.store.get(adaRequest);
    expect(request?.status).toBe('assigned');
    const license = activeIn().find((l) => l.student.email === U.ada.email);
    expect(request?.licenseId).toBe(license?.id);
    // The DM names the license and its end date.
    expect(message).toContain(`license \`${license?.id}\``);
    expect(message).toContain(`until ${dayText(license?.end ?? '')}`);
    // Every copy of the card shows it; the line is empty.
    await cardUpdate(U.ada.id, 'assigned');
    expect(await line()).toEqual([]);
    // The assign ran as the approver who approved, and the requester heard it once.
    const assigned = t.logs.find((l) => l.message === 'audit' && l.action === 'assign' && l.outcome === 'done');
    expect(assigned?.actor).toBe(ADMIN);
    expect(dmsTo(U.ada.id, 'yours')).toHaveLength(1);
  });

  it('a seat freed outside License Desk is found by the background check and given to the waitlisted request', async () => {
    const { id } = await waitlistedRequest(U.ben.id);
    const seat = victim();
    expect((await callSandbox(t.sandbox, 'DELETE', `/v1/license/${seat}`)).status).toBe(200);
    t.sandbox.clearRequests();
    const told = dm(U.ben.id, (s) => s.includes('it is yours'));
    const watch = t.selfService?.watch;
    expect(await watch?.tick()).toEqual({ ran: true, read: [POOL], withSeats: [POOL] });
    await told;
    expect(posts()).toEqual([`/v1/pool/${POOL}/license`]);
    expect(holds(U.ben.email)).toBe(true);
    expect(await statusOf(id)).toBe('assigned');
    await cardUpdate(U.ben.id, 'assigned');
  });

  it('requests that can never take the seat pass it to the next, and the approver is told why', async () => {
    const cyd = await waitlistedRequest(U.cyd.id); // their domain is not allowed in this transferable pool
    const eve = await waitlistedRequest(U.eve.id); // leaves the workspace while waiting
    const dot = await waitlistedRequest(U.dot.id);
    expect(await line()).toEqual([cyd.id, eve.id, dot.id]);
    t.slack.setUser({ ...U.eve, deleted: true });

    const whyCyd = dm(ADMIN, (s) => s.includes(`<@${U.cyd.id}> could not take the freed seat`));
    const whyEve = dm(ADMIN, (s) => s.includes(`<@${U.eve.id}> could not take the freed seat`));
    const dotTold = dm(U.dot.id, (s) => s.includes('it is yours'));
    const seat = victim();
    t.sandbox.clearRequests();
    await t.clickButton(ChangeActionId.revokeConfirm, seat);
    expect(allText((await whyCyd).args.blocks)).toMatch(/domain is not allowed[\s\S]*next in line, <@U0WQEVE001>/);
    expect(allText((await whyEve).args.blocks)).toMatch(
      /no longer in the Slack workspace[\s\S]*next in line, <@U0WQDOT001>/,
    );
    await dotTold;
    await dm(U.cyd.id, (s) => s.includes('could not be assigned to you'));
    // Only the request that could take the seat was sent: one POST.
    expect(posts()).toEqual([`/v1/pool/${POOL}/license`]);
    expect(holds(U.dot.email)).toBe(true);
    expect(holds(U.cyd.email)).toBe(false);
    expect(await line()).toEqual([]);
    // The requests that could not take it are closed with the reason, on every card.
    expect(await statusOf(dot.id)).toBe('assigned');
    expect(await statusOf(cyd.id)).toBe('denied');
    expect(await statusOf(eve.id)).toBe('denied');
    await cardUpdate(U.cyd.id, 'could not be assigned');
  });

  it('an admin’s Remove takes a waitlisted request out of the line and closes it; the requester is told', async () => {
    const viewer = await waitlistedRequest(TEST_USERS.viewer);
    expect(await line()).toEqual([viewer.id]);
    const shown = await (await t.command(`waitlist ${POOL}`)).waitForResponse();
    const remove = buttons(shown.body).find((b) => b.action_id === WaitlistActionId.remove);
    expect(remove).toBeDefined();
    await (await t.clickButton(WaitlistActionId.remove, String(remove?.value))).waitForResponse();
    expect(await line()).toEqual([]);
    expect(await statusOf(viewer.id)).toBe('denied');
    await dm(TEST_USERS.viewer, (s) => s.includes('removed from the waitlist'));
  });
});
