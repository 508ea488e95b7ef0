/**
 * Self-service course requests end to end: signed commands, clicks, submissions and a Workflow
 * Builder event in; Slack calls out to the recording fake; licenses from the sandbox. The clock is
 * injected, and the reminder and expiry check is driven with tick(), never waited for.
 */
import { describe, expect, it } from 'vitest';
import { CallbackId, RequestActionId, RequestCallbackId } from '../../src/kernel/blocks/ids.js';
import { checkModalLimits } from '../../src/kernel/blocks/limits.js';
import { requestTimers } from '../../src/requests/domain/requests.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';
import { movableClock } from '../support/clock.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import type { SlackCall } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import {
  approvedStepOutputs,
  cardUpdated,
  poolOnlyRequestView,
  requestFormView,
  selfServiceTo,
  submitDenyReason,
  workflowStepEvent,
} from '../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const WORKFLOW_USER = 'U0WFLOW001';
const OUTSIDER = 'U0NOSUCH01';
const WAITING_USER = 'U0WAIT0001';
const RECYCLE_USER = 'U0RECY0001';

const clock = movableClock();
const now = clock.now;
const t = appPerFile('requests-e2e-', (dataDir) =>
  startTestApp({
    now,
    dataDir,
    admins: [TEST_USERS.admin, TEST_USERS.workspaceAdmin],
    slack: {
      users: [
        { id: WORKFLOW_USER, name: 'wes.flow', email: 'wes.flow@acme-learning.example' },
        { id: WAITING_USER, name: 'wim.wait', email: 'wim.wait@contoso.com' },
        { id: RECYCLE_USER, name: 'rita.recycle', email: 'rita.recycle@contoso.com' },
      ],
    },
    ...selfServiceTo(CHANNEL),
  }),
);

/** Workflow Builder runs the step: function_executed number `n` with `inputs`, as Slack sends it. */
const runStep = (n: number, inputs: Record<string, string>) => t.event(workflowStepEvent(`Fx0REQUEST${n}`, inputs));

const posts = (poolId: string) =>
  t.sandbox.requests.filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/pool/${poolId}/license`));

/** The request form as a member submits it (the form itself is checked in the first test). */
function submitForm(user: string, poolId: string, extra: { reason?: string; neededBy?: string } = {}) {
  return t.viewSubmission({ view: requestFormView(`VREQ${user}`, poolId, extra) }, { userId: user });
}

/** The card posted to the requests channel for `user`'s request, and the request id on its buttons. */
async function cardFor(user: string): Promise<{ call: SlackCall; id: string }> {
  const call = await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === CHANNEL && textOf(c.args.blocks).includes(`<@${user}>`),
  );
  const approve = buttons(call.args).find((b) => b.action_id === RequestActionId.approve);
  // The requester hears "received" once every copy of the card is saved on the request.
  await waitForDm(t.slack, user, 'was received');
  return { call, id: String(approve?.value) };
}

const click = (actionId: string, requestId: string, userId: string) =>
  t.action(
    {
      container: { type: 'message', message_ts: '1767225600.000200', channel_id: CHANNEL },
      channel: { id: CHANNEL, name: 'license-requests' },
      actions: [
        { action_id: actionId, block_id: 'b', type: 'button', value: requestId, action_ts: `${Date.now() / 1000}` },
      ],
    },
    { userId, channelId: CHANNEL },
  );

/** The update of `user`'s card in the requests channel that shows `words`. */
const cardUpdate = (user: string, words: string) => cardUpdated(t, CHANNEL, user, words);

describe('course requests', () => {
  it('a member requests a course and an admin approves: exactly one POST, the license goes to the member, who is told', async () => {
    const member = TEST_USERS.nobody;
    const asked = await t.command('request power query', { userId: member });
    expect(asked.status).toBe(200);
    const form = await t.slack.waitForCall(
      'views.update',
      (c) => (c.args.view as { callback_id?: string }).callback_id === RequestCallbackId.form,
    );
    const formText = textOf(form.args.view);
    expect(formText).toContain('Power Query Fundamentals · pool 2005');
    expect(formText).toContain('2 free seats');
    expect(formText).not.toContain('pool 2006'); // ended pools are not offered
    expect(formText).toMatch(/full: you'll join the waitlist/); // 2003 is full
    // The words named one course: it is preselected.
    const select = JSON.stringify(form.args.view);
    expect(select).toContain('"initial_option"');
    expect(checkModalLimits(form.args.view)).toEqual([]);

    expect((await submitForm(member, '2005', { reason: 'Quarterly reporting <!channel>' })).status).toBe(200);
    const { call: card, id } = await cardFor(member);
    const cardText = textOf(card.args.blocks);
    expect(cardText).toContain('nora.quinn@acme-learning.example');
    expect(cardText).toContain('Power Query Fundamentals');
    expect(cardText).toContain('pool `2005`');
    expect(cardText).toContain('2 free seats');
    expect(cardText).toContain('&lt;!channel&gt;'); // the reason is escaped: it pings nobody
    const before = posts('2005').length;
    const approved = await click(RequestActionId.approve, id, TEST_USERS.admin);
    const answer = await approved.waitForResponse();
    expect(textOf(answer.body.blocks)).toMatch(/Approved: license `\d+` assigned to <@U0NOROLE01>/);
    expect(posts('2005').length - before).toBe(1);
    const license = t.sandbox.inspect
      .licenses({ poolId: '2005' })
      .find((l) => l.student.email === 'nora.quinn@acme-learning.example');
    expect(license?.active).toBe(true);
    // The duration counts from the approval: the license starts now, not when it was asked for.
    expect(Math.abs(Date.parse(license?.start ?? '') - now().getTime())).toBeLessThan(86_400_000);

    const dm = await waitForDm(t.slack, member, 'is yours');
    expect(textOf(dm.args.blocks)).toContain(`license \`${license?.id}\``);
    expect(textOf(dm.args.blocks)).toMatch(/until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    const updated = await cardUpdate(member, 'Approved by');
    expect(textOf(updated.args.blocks)).toContain(`Approved by <@${TEST_USERS.admin}>`);
    expect(buttons(updated.args).map((b) => b.action_id)).not.toContain(RequestActionId.approve);

    const actions = t.logs.filter((l) => l.message === 'audit').map((l) => `${String(l.action)}:${String(l.outcome)}`);
    expect(actions).toEqual(expect.arrayContaining(['requested:done', 'assign:done', 'approved:done']));
    // The e-mail is masked in the log.
    expect(JSON.stringify(t.logs)).not.toContain('nora.quinn@acme-learning.example');
  });

  it('an admin cannot approve their own request, and nothing is written', async () => {
    await submitForm(TEST_USERS.admin, '2002');
    const { id } = await cardFor(TEST_USERS.admin);
    const before = posts('2002').length;
    const answer = await (await click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(answer.body.blocks)).toContain('can’t decide your own request');
    expect(posts('2002').length).toBe(before);
    expect((await t.deps.requests?.store.get(id))?.status).toBe('pending');
  });

  it('/licenses requests lists a member’s own requests, and one not yet decided can be cancelled', async () => {
    const member = TEST_USERS.admin; // their own request of the test above is still pending
    const list = await (await t.command('requests', { userId: member })).waitForResponse();
    const cancel = buttons(list.body).find((b) => b.action_id === RequestActionId.cancel);
    expect(textOf(list.body.blocks)).toContain('Waiting for a license admin');
    const r = await t.action(
      {
        actions: [
          { action_id: RequestActionId.cancel, block_id: 'b', type: 'button', value: cancel?.value, action_ts: '1' },
        ],
      },
      { userId: member },
    );
    const after = await r.waitForResponse();
    expect(textOf(after.body.blocks)).toContain('Request cancelled');
    expect(textOf(after.body.blocks)).toContain('Cancelled by the requester');
    const again = await (
      await t.action(
        {
          actions: [
            { action_id: RequestActionId.cancel, block_id: 'b', type: 'button', value: cancel?.value, action_ts: '2' },
          ],
        },
        { userId: member },
      )
    ).waitForResponse();
    expect(textOf(again.body.blocks)).toContain('cannot be cancelled');
  });

  it('the Home button and the global shortcut open the same form, for a member with no role', async () => {
    await t.clickButton(RequestActionId.open, 'request', { userId: TEST_USERS.nobody });
    const fromHome = await t.slack.waitForCall(
      'views.update',
      (c) => (c.args.view as { private_metadata?: string }).private_metadata === JSON.stringify({ s: 'home' }),
    );
    expect((fromHome.args.view as { callback_id?: string }).callback_id).toBe(RequestCallbackId.form);
    await t.action(
      { type: 'shortcut', callback_id: RequestCallbackId.shortcut, actions: undefined },
      { userId: TEST_USERS.nobody },
    );
    const fromShortcut = await t.slack.waitForCall(
      'views.update',
      (c) => (c.args.view as { private_metadata?: string }).private_metadata === JSON.stringify({ s: 'shortcut' }),
    );
    expect(textOf(fromShortcut.args.view)).toContain('Power Query Fundamentals · pool 2005');
  });

  it('two admins click Approve at once: still exactly one POST, and the later click learns who approved', async () => {
    const member = TEST_USERS.student;
    await submitForm(member, '2002');
    const { id } = await cardFor(member);
    const before = posts('2002').length;
    const [a, b] = await Promise.all([
      click(RequestActionId.approve, id, TEST_USERS.admin),
      click(RequestActionId.approve, id, TEST_USERS.workspaceAdmin),
    ]);
    const texts = await Promise.all([a.waitForResponse(), b.waitForResponse()]).then((r) =>
      r.map((p) => textOf(p.body.blocks)),
    );
    expect(posts('2002').length - before).toBe(1);
    const winner = texts.findIndex((x) => x.includes('Approved: license'));
    expect(winner).toBeGreaterThanOrEqual(0);
    const loserText = texts[1 - winner] ?? '';
    const winnerId = winner === 0 ? TEST_USERS.admin : TEST_USERS.workspaceAdmin;
    expect(loserText).toContain(`already approved by <@${winnerId}>`);
  });

  it('approving for a full pool offers recycle or the waitlist; a freed seat goes to the waitlisted request (one POST) and they are told', async () => {
    await submitForm(WAITING_USER, '2003');
    const { id } = await cardFor(WAITING_USER);
    const before = posts('2003').length;
    const choice = await (await click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(choice.body.blocks)).toContain('is full');
    expect(buttons(choice.body).map((b) => b.action_id)).toEqual([RequestActionId.recycle, RequestActionId.waitlist]);
    expect(posts('2003').length).toBe(before);

    const added = await (await click(RequestActionId.waitlist, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(added.body.blocks)).toContain('On the waitlist, number 1');
    await waitForDm(t.slack, WAITING_USER, 'you are on the waitlist, number 1');
    await cardUpdate(WAITING_USER, 'on the waitlist');

    // A seat frees up (revoked elsewhere), and the waitlist hands it on.
    const held = t.sandbox.inspect.licenses({ poolId: '2003' }).find((l) => l.active && l.revokable);
    await t.licensing.licenses.revoke(String(held?.id));
    await t.deps.waitlist?.seatFreed('2003');
    expect(posts('2003').length - before).toBe(1);
    await waitForDm(t.slack, WAITING_USER, 'is yours');
    expect((await t.deps.requests?.store.get(id))?.status).toBe('assigned');
    await cardUpdate(WAITING_USER, 'assigned');
  });

  it('"Free a seat…" opens the assign form with its recycle confirmation, prefilled; the check then settles the request', async () => {
    await submitForm(RECYCLE_USER, '2003');
    const { id } = await cardFor(RECYCLE_USER);
    await (await click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    await click(RequestActionId.recycle, id, TEST_USERS.admin);
    const form = await t.slack.waitForCall(
      'views.update',
      (c) =>
        (c.args.view as { callback_id?: string }).callback_id === CallbackId.assignForm &&
        JSON.stringify(c.args.view).includes('rita.recycle@contoso.com'),
    );
    expect(JSON.stringify(form.args.view)).toContain('Free a seat');
    // The admin completes the recycle in that form (tested with the assign flow); here the license
    // lands as the form would send it.
    await t.licensing.pools.assign('2003', { email: 'rita.recycle@contoso.com', recycle: true });
    expect((await t.deps.requests?.store.get(id))?.status).toBe('approved');
    expect(await t.deps.requests?.check?.tick()).toEqual({ reminded: 0, expired: 0, settled: 1 });
    expect((await t.deps.requests?.store.get(id))?.status).toBe('assigned');
    await waitForDm(t.slack, RECYCLE_USER, 'is yours');
  });

  it('a denial with a reason reaches the requester, and a late Approve is told it was denied', async () => {
    const member = TEST_USERS.viewer;
    await submitForm(member, '2002', { reason: 'Onboarding' });
    const { id } = await cardFor(member);
    await click(RequestActionId.deny, id, TEST_USERS.admin);
    const modal = await t.slack.waitForCall(
      'views.open',
      (c) => (c.args.view as { callback_id?: string }).callback_id === RequestCallbackId.denyForm,
    );
    expect((modal.args.view as { private_metadata?: string }).private_metadata).toBe(id);
    // The form's first view: its close button cancels (there is nothing to go back to).
    expect((modal.args.view as { close?: { text: string } }).close?.text).toBe('Cancel');
    const before = posts('2002').length;
    await submitDenyReason(t, id, 'Budget is frozen until March');
    const dm = await waitForDm(t.slack, member, 'was denied');
    expect(textOf(dm.args.blocks)).toContain('Budget is frozen until March');
    expect(textOf(dm.args.blocks)).toContain(`<@${TEST_USERS.admin}>`);
    const late = await (await click(RequestActionId.approve, id, TEST_USERS.workspaceAdmin)).waitForResponse();
    expect(textOf(late.body.blocks)).toContain(`already denied by <@${TEST_USERS.admin}>`);
    expect(posts('2002').length).toBe(before);
  });

  it('an undecided request reminds the approvers after 24 hours and expires after 7 days; the requester is told', async () => {
    const member = TEST_USERS.groupViewer;
    await submitForm(member, '2002');
    const { id } = await cardFor(member);
    const check = t.deps.requests?.check;
    expect(check).toBeDefined();
    expect(await check?.tick()).toEqual({ reminded: 0, expired: 0 });
    clock.advance(25 * 3_600_000);
    expect(await check?.tick()).toEqual({ reminded: 1, expired: 0 });
    const reminder = await t.slack.waitForCall(
      'chat.postMessage',
      (c) =>
        c.args.channel === CHANNEL && c.args.thread_ts !== undefined && textOf(c.args.blocks).includes(`<@${member}>`),
    );
    expect(textOf(reminder.args.blocks)).toContain('still waiting for a decision');
    expect(await check?.tick()).toEqual({ reminded: 0, expired: 0 }); // once
    clock.advance(6 * 86_400_000);
    expect(await check?.tick()).toEqual({ reminded: 0, expired: 1 });
    expect((await t.deps.requests?.store.get(id))?.status).toBe('expired');
    await waitForDm(t.slack, member, 'expired');
    const late = await (await click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(late.body.blocks)).toContain('has already expired');
  });

  it('the Workflow Builder step: function_executed creates a request, the approval completes the step with its outputs', async () => {
    const sent = await runStep(1, { requester: WORKFLOW_USER, pool_id: '2002', reason: 'New hire' });
    expect(sent.status).toBe(200);
    const { call: card, id } = await cardFor(WORKFLOW_USER);
    expect(textOf(card.args.blocks)).toContain('New hire');
    expect(t.slack.calls.some((c) => c.method.startsWith('functions.'))).toBe(false);
    await (await click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    const done = await t.slack.waitForCall('functions.completeSuccess');
    expect(done.args.function_execution_id).toBe('Fx0REQUEST1');
    expect(done.args.outputs).toEqual(approvedStepOutputs(t, '2002', 'wes.flow@acme-learning.example'));
  });

  it('the Workflow Builder step with a bad pool id completes with a readable error', async () => {
    await runStep(2, { requester: WORKFLOW_USER, pool_id: 'no such pool!' });
    const failed = await t.slack.waitForCall(
      'functions.completeError',
      (c) => c.args.function_execution_id === 'Fx0REQUEST2',
    );
    expect(String(failed.args.error)).toContain('is not a pool id');
  });

  it('a member with no role who types another subcommand is refused and told how to ask for a course; a guest is not', async () => {
    const member = await (await t.command('pools', { userId: TEST_USERS.nobody })).waitForResponse();
    expect(textOf(member.body.blocks)).toContain("you don't have access to License Desk");
    expect(textOf(member.body.blocks)).toContain('/licenses request');
    const guest = await (await t.command('pools', { userId: TEST_USERS.guest })).waitForResponse();
    expect(textOf(guest.body.blocks)).toContain("you don't have access to License Desk");
    expect(textOf(guest.body.blocks)).not.toContain('/licenses request');
  });

  it.each([
    ['a guest', TEST_USERS.guest, 'only full members'],
    ['someone outside the workspace', OUTSIDER, 'only full members'],
  ])('%s is refused, and nothing is stored', async (_who, user, words) => {
    const r = await t.command('request 2002', { userId: user });
    const answer = await r.waitForResponse();
    expect(textOf(answer.body.blocks)).toContain(words);
    const submitted = await submitForm(user, '2002');
    expect(submitted.status).toBe(200);
    await t.slack.waitForCall(
      'views.update',
      (c) => c.args.view_id === `VREQ${user}` && textOf(c.args.view).includes('only full members'),
    );
    expect(await t.deps.requests?.store.byRequester(user)).toEqual([]);
  });
});

describe('course requests without REQUESTS_CHANNEL', () => {
  it('the cards go by DM to each user in LICENSE_ADMINS, and a decision updates every copy', async () => {
    const other = await startTestApp({
      admins: [TEST_USERS.admin, TEST_USERS.workspaceAdmin],
      requests: { timers: requestTimers(24, 7) },
    });
    try {
      await other.viewSubmission({ view: poolOnlyRequestView('VREQDM0001', '2005') }, { userId: TEST_USERS.viewer });
      const isCard = (c: SlackCall) => buttons(c.args).some((b) => b.action_id === RequestActionId.approve);
      const toAdmin = (admin: string) =>
        other.slack.waitForCall('chat.postMessage', (c) => c.args.channel === dmChannel(admin) && isCard(c));
      const [first] = await Promise.all([toAdmin(TEST_USERS.admin), toAdmin(TEST_USERS.workspaceAdmin)]);
      const id = String(buttons(first.args).find((b) => b.action_id === RequestActionId.approve)?.value);
      await waitForDm(other.slack, TEST_USERS.viewer, 'was received');
      await other.clickButton(RequestActionId.deny, id, { userId: TEST_USERS.admin });
      await other.slack.waitForCall('views.open', (c) => textOf(c.args.view).includes('Deny'));
      await other.viewSubmission(
        { view: { id: 'VDENYDM001', callback_id: RequestCallbackId.denyForm, private_metadata: id } },
        { userId: TEST_USERS.admin },
      );
      const updated = (admin: string) =>
        other.slack.waitForCall(
          'chat.update',
          (c) => c.args.channel === dmChannel(admin) && textOf(c.args.blocks).includes('Denied by'),
        );
      await Promise.all([updated(TEST_USERS.admin), updated(TEST_USERS.workspaceAdmin)]);
    } finally {
      await other.close();
    }
  });

  it('with neither REQUESTS_CHANNEL nor user ids in LICENSE_ADMINS, a request is refused with what to set', async () => {
    const other = await startTestApp({ admins: [], requests: { timers: requestTimers(24, 7) } });
    try {
      const answer = await (await other.command('request 2005', { userId: TEST_USERS.nobody })).waitForResponse();
      expect(textOf(answer.body.blocks)).toContain('set REQUESTS_CHANNEL');
      expect(other.slack.calls.some((c) => c.method === 'views.open')).toBe(false);
    } finally {
      await other.close();
    }
  });
});
