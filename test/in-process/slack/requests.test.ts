/**
 * Course requests and the waitlist through the app's listeners, without a process (listener harness):
 * `/licenses request` and its form (requests/form.ts, requests/start.ts), the card in the requests
 * channel with an admin's Approve / Deny (requests/decide.ts), Cancel by the requester
 * (`/licenses requests`), Add to the waitlist on a full pool, `/licenses waitlist` with its buttons
 * (waitlist/command.ts, waitlist/actions.ts) and the hand-on of a freed seat. Asserted: what the member
 * and the admin read and can click, the licensing writes and the DMs. The signed-HTTP versions are in
 * test/app (requests, waitlist, waitlist-requests).
 */
import { describe, expect, it } from 'vitest';
import { RequestActionId, RequestCallbackId, WaitlistActionId } from '../../../src/kernel/blocks/ids.js';
import { checkModalLimits } from '../../../src/kernel/blocks/limits.js';
import { appPerFile } from '../../support/app-per-file.js';
import { textOf, writes } from '../../support/change-flow.js';
import { dmChannel, waitForDm } from '../../support/dms.js';
import { buttons } from '../../support/fixtures.js';
import { seen, startListenerApp, TEST_USERS } from '../../support/listener-harness.js';
import {
  cardUpdated,
  clickInRequestsChannel,
  requestFormView,
  selfServiceTo,
  submitDenyReason,
} from '../../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const CARD = { channel: CHANNEL, ts: '1767225600.000200' };
const WAITING_USER = 'U0WAIT0001';

const t = appPerFile('requests-', () =>
  startListenerApp({
    admins: [TEST_USERS.admin, TEST_USERS.workspaceAdmin],
    slack: { users: [{ id: WAITING_USER, name: 'wim.wait', email: 'wim.wait@contoso.com' }] },
    ...selfServiceTo(CHANNEL),
  }),
);

const posts = (poolId: string) =>
  writes(t).filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/pool/${poolId}/license`));
const dmsTo = (user: string, words: string) =>
  t.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' && c.args.channel === dmChannel(user) && textOf(c.args.blocks).includes(words),
  );

/** The last reply to a command, as the person sees it. */
async function run(text: string, userId: string) {
  const r = await t.command(text, { userId });
  expect(r.status).toBe(200);
  const last = r.responses().at(-1);
  if (!last) throw new Error(`no reply to /licenses ${text}`);
  return { ...seen(last), body: last.body };
}

/** A click on the card in the requests channel, and the reply its clicker sees. */
async function onCard(actionId: string, requestId: string, userId: string = TEST_USERS.admin) {
  const r = await clickInRequestsChannel(t, CARD, actionId, requestId, userId);
  expect(r.status).toBe(200);
  const last = r.responses().at(-1);
  if (!last) throw new Error(`no reply to the ${actionId} click`);
  return { ...seen(last), body: last.body };
}

/** The member submits the request form; the card posted to the requests channel and the request id on its buttons. */
async function requestCourse(user: string, poolId: string, extra: { reason?: string } = {}) {
  const sent = await t.viewSubmission({ view: requestFormView(`VREQ${user}`, poolId, extra) }, { userId: user });
  expect(sent.status).toBe(200);
  const card = await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === CHANNEL && textOf(c.args.blocks).includes(`<@${user}>`),
  );
  const id = String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
  await waitForDm(t.slack, user, 'was received');
  return { card, id };
}

const cardUpdate = (user: string, words: string) => cardUpdated(t, CHANNEL, user, words);

describe('/licenses request and the card', () => {
  it('a member with no role gets the form: running pools, the named course chosen, a full pool marked', async () => {
    const from = t.slack.calls.length;
    const r = await t.command('request power query', { userId: TEST_USERS.nobody });
    expect(r.status).toBe(200);
    const form = await t.slack.waitForCall(
      'views.update',
      (c) =>
        t.slack.calls.indexOf(c) >= from &&
        (c.args.view as { callback_id?: string }).callback_id === RequestCallbackId.form,
    );
    const text = textOf(form.args.view);
    expect(text).toContain('Power Query Fundamentals · pool 2005');
    expect(text).toContain('2 free seats');
    expect(text).not.toContain('pool 2006');
    expect(text).toMatch(/full: you'll join the waitlist/);
    expect(JSON.stringify(form.args.view)).toContain('"initial_option"');
    expect(checkModalLimits(form.args.view)).toEqual([]);
    expect(writes(t)).toEqual([]);
  });

  it('a guest is refused with who may ask, and no form opens', async () => {
    const from = t.slack.calls.length;
    const refused = await run('request 2002', TEST_USERS.guest);
    expect(refused.text).toContain('only full members');
    expect(t.slack.calls.slice(from).some((c) => c.method === 'views.open')).toBe(false);
  });

  it('the submitted form posts a card with the member, course and seats, Approve and Deny; the member is told', async () => {
    const member = TEST_USERS.nobody;
    const { card } = await requestCourse(member, '2005', { reason: 'Quarterly reporting <!channel>' });
    const text = textOf(card.args.blocks);
    expect(text).toContain('nora.quinn@acme-learning.example');
    expect(text).toContain('Power Query Fundamentals');
    expect(text).toContain('pool `2005`');
    expect(text).toContain('&lt;!channel&gt;');
    expect(buttons(card.args).map((b) => b.action_id)).toEqual(
      expect.arrayContaining([RequestActionId.approve, RequestActionId.deny]),
    );
    expect(dmsTo(member, 'was received')).toHaveLength(1);
  });

  it('Approve: exactly one POST, the license goes to the member, the DM says it is theirs, the card loses its buttons', async () => {
    const member = TEST_USERS.nobody;
    const id = (await t.deps.requests?.store.byRequester(member))?.find((r) => r.status === 'pending')?.id ?? '';
    t.sandbox.clearRequests();
    const approved = await onCard(RequestActionId.approve, id);
    expect(approved.text).toMatch(/Approved: license `\d+` assigned to <@U0NOROLE01>/);
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/pool/2005/license']);
    const license = t.sandbox.inspect
      .licenses({ poolId: '2005' })
      .find((l) => l.student.email === 'nora.quinn@acme-learning.example');
    expect(license?.active).toBe(true);
    const dm = await waitForDm(t.slack, member, 'is yours');
    expect(textOf(dm.args.blocks)).toContain(`license \`${license?.id}\``);
    const updated = await cardUpdate(member, 'Approved by');
    expect(buttons(updated.args).map((b) => b.action_id)).not.toContain(RequestActionId.approve);
  });

  it('an admin cannot approve their own request, and a viewer cannot approve at all: nothing written', async () => {
    const { id } = await requestCourse(TEST_USERS.admin, '2002');
    t.sandbox.clearRequests();
    const own = await onCard(RequestActionId.approve, id, TEST_USERS.admin);
    expect(own.text).toContain('can’t decide your own request');
    const viewer = await onCard(RequestActionId.approve, id, TEST_USERS.viewer);
    expect(viewer.text).toMatch(/license admin/i);
    expect(viewer.buttons).toEqual([]);
    expect(writes(t)).toEqual([]);
    expect((await t.deps.requests?.store.get(id))?.status).toBe('pending');
  });

  it('Cancel by the requester in /licenses requests: the request is cancelled, a second Cancel is refused', async () => {
    const member = TEST_USERS.admin; // the request of the test above is still pending
    const list = await run('requests', member);
    expect(list.text).toContain('Waiting for a license admin');
    expect(list.buttons).toContain(RequestActionId.cancel);
    const value = String(buttons(list.body).find((b) => b.action_id === RequestActionId.cancel)?.value);
    t.sandbox.clearRequests();
    const cancel = async () => {
      const r = await t.clickButton(RequestActionId.cancel, value, { userId: member });
      const last = r.responses().at(-1);
      if (!last) throw new Error('no reply to Cancel');
      return seen(last);
    };
    const done = await cancel();
    expect(done.text).toContain('Request cancelled');
    expect(done.text).toContain('Cancelled by the requester');
    expect((await t.deps.requests?.store.get(value))?.status).toBe('cancelled');
    expect((await cancel()).text).toContain('cannot be cancelled');
    expect(writes(t)).toEqual([]);
  });

  it('Deny opens the reason form; its submission tells the requester why and who, and nothing is written', async () => {
    const member = TEST_USERS.viewer;
    const { id } = await requestCourse(member, '2002', { reason: 'Onboarding' });
    const from = t.slack.calls.length;
    await clickInRequestsChannel(t, CARD, RequestActionId.deny, id, TEST_USERS.admin);
    const modal = t.slack.calls
      .slice(from)
      .find(
        (c) =>
          c.method === 'views.open' &&
          (c.args.view as { callback_id?: string }).callback_id === RequestCallbackId.denyForm,
      );
    expect((modal?.args.view as { private_metadata?: string } | undefined)?.private_metadata).toBe(id);
    t.sandbox.clearRequests();
    const sent = await submitDenyReason(t, id, 'Budget is frozen until March');
    expect(sent.status).toBe(200);
    const dm = await waitForDm(t.slack, member, 'was denied');
    expect(textOf(dm.args.blocks)).toContain('Budget is frozen until March');
    expect(textOf(dm.args.blocks)).toContain(`<@${TEST_USERS.admin}>`);
    await cardUpdate(member, 'Denied by');
    const late = await onCard(RequestActionId.approve, id, TEST_USERS.workspaceAdmin);
    expect(late.text).toContain(`already denied by <@${TEST_USERS.admin}>`);
    expect(writes(t)).toEqual([]);
  });
});

describe('the waitlist', () => {
  let waitingId = '';

  it('Approve on a full pool offers Free a seat… and Add to the waitlist, with nothing written', async () => {
    const { id } = await requestCourse(WAITING_USER, '2003');
    waitingId = id;
    t.sandbox.clearRequests();
    const choice = await onCard(RequestActionId.approve, id);
    expect(choice.text).toContain('is full');
    expect(choice.buttons).toEqual([RequestActionId.recycle, RequestActionId.waitlist]);
    expect(writes(t)).toEqual([]);
  });

  it('Add to the waitlist: number 1, the requester is told by DM, the card says so', async () => {
    t.sandbox.clearRequests();
    const added = await onCard(RequestActionId.waitlist, waitingId);
    expect(added.text).toContain('On the waitlist, number 1');
    await waitForDm(t.slack, WAITING_USER, 'you are on the waitlist, number 1');
    await cardUpdate(WAITING_USER, 'on the waitlist');
    expect(writes(t)).toEqual([]);
  });

  it('/licenses waitlist 2003: the line for a viewer without buttons, for an admin with Move and Remove; no licensing call', async () => {
    t.sandbox.clearRequests();
    const viewer = await run('waitlist 2003', TEST_USERS.viewer);
    expect(viewer.text).toContain(`<@${WAITING_USER}>`);
    expect(viewer.buttons).toEqual([]);
    const admin = await run('waitlist 2003', TEST_USERS.admin);
    expect(admin.text).toContain(`<@${WAITING_USER}>`);
    expect(admin.buttons).toContain(WaitlistActionId.remove);
    expect(t.sandbox.requests).toEqual([]);
    const none = await run('waitlist 2002', TEST_USERS.admin);
    expect(none.text).not.toContain(`<@${WAITING_USER}>`);
  });

  it('a viewer clicking Remove is refused and the request stays in line', async () => {
    const refused = await t.clickButton(WaitlistActionId.remove, JSON.stringify({ r: waitingId, f: '2003' }), {
      userId: TEST_USERS.viewer,
    });
    const last = refused.responses().at(-1);
    expect(last && seen(last).text).toMatch(/license admin/i);
    expect((await t.deps.waitlist?.entries('2003'))?.map((e) => e.requestId)).toEqual([waitingId]);
  });

  it('a freed seat goes to the first in line: exactly one POST, the DM says it is theirs, the card says assigned', async () => {
    const held = t.sandbox.inspect.licenses({ poolId: '2003' }).find((l) => l.active && l.revokable);
    await t.licensing.licenses.revoke(String(held?.id));
    t.sandbox.clearRequests();
    await t.deps.waitlist?.seatFreed('2003');
    expect(posts('2003')).toHaveLength(1);
    expect(writes(t)).toHaveLength(1);
    const license = t.sandbox.inspect
      .licenses({ poolId: '2003' })
      .find((l) => l.active && l.student.email === 'wim.wait@contoso.com');
    expect(license).toBeDefined();
    await waitForDm(t.slack, WAITING_USER, 'is yours');
    expect((await t.deps.requests?.store.get(waitingId))?.status).toBe('assigned');
    await cardUpdate(WAITING_USER, 'assigned');
    expect(await t.deps.waitlist?.entries('2003')).toEqual([]);
  });
});
