/**
 * Course requests at their edges, end to end: signed commands, clicks, submissions and Workflow
 * Builder events in; Slack calls recorded by the fake; licenses from the sandbox. An approval asks
 * again whether the requester may still get a license; one person cannot flood the approvers; the
 * Workflow Builder step is idempotent by its execution id; cards reach the admins of a user group;
 * an approval for a full pool is reminded and expires; the form and the card say how long the
 * license would run. The clock is injected and the check is driven with tick().
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RequestActionId, RequestCallbackId, RequestInputId } from '../../src/kernel/blocks/ids.js';
import { openRecords } from '../../src/kernel/db/open.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { type CourseRequest, requestTimers } from '../../src/requests/domain/requests.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { type SlackCall, slackMember } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import {
  poolOnlyRequestView,
  requestFormView,
  sampleRequest,
  submitDenyReason,
  workflowStepEvent,
} from '../support/requests.js';

const CHANNEL = 'C0REQBOUND';
const DAY = 86_400_000;

const member = slackMember;
const LEAVER = member('U0LEAVE001', 'lea.leaver');
const TURNED_GUEST = member('U0TGUEST01', 'tom.turned');
const DROPPED = member('U0DROP0001', 'dora.dropped');
const FLOW = member('U0FLOWB001', 'fay.flow');
const WAITER = member('U0FULL0001', 'fred.full');
const TIMED = member('U0TIMED001', 'tim.timed');
const EMOJI = member('U0EMOJI001', 'emma.emoji');
const MANY = member('U0MANY0001', 'max.many');
const LOOPER = member('U0LOOP0001', 'lou.looper');
const GROUP_ADMIN = member('U0GADMIN01', 'gina.groupadmin');
const ADMIN_GROUP = 'S0LICADMS1';

/** One app, its clock and the helpers the tests below drive it with. */
function driver() {
  const d = {
    t: undefined as unknown as TestApp,
    offsetMs: 0,
    now: () => new Date(Date.now() + d.offsetMs),
    submit(user: string, poolId: string, extra: { reason?: string; neededBy?: string } = {}) {
      return d.t.viewSubmission({ view: requestFormView(`VREQ${user}`, poolId, extra) }, { userId: user });
    },
    /** What the form's view showed after a submission (the result or refusal), once it contains `words`. */
    shown(user: string, words: string) {
      return d.t.slack.waitForCall(
        'views.update',
        (c) => c.args.view_id === `VREQ${user}` && textOf(c.args.view).includes(words),
      );
    },
    click(actionId: string, value: string, userId: string) {
      return d.t.action(
        {
          container: { type: 'message', message_ts: '1767225600.000200', channel_id: CHANNEL },
          channel: { id: CHANNEL, name: 'license-requests' },
          actions: [{ action_id: actionId, block_id: 'b', type: 'button', value, action_ts: `${Date.now() / 1000}` }],
        },
        { userId, channelId: CHANNEL },
      );
    },
    /** The request id on the first card about `user` (in the channel, or in an admin's DM). */
    async cardFor(user: string, where = CHANNEL): Promise<{ call: SlackCall; id: string }> {
      const call = await d.t.slack.waitForCall(
        'chat.postMessage',
        (c) =>
          c.args.channel === where &&
          c.args.thread_ts === undefined &&
          textOf(c.args.blocks).includes(`<@${user}>`) &&
          buttons(c.args).some((b) => b.action_id === RequestActionId.approve),
      );
      const id = String(buttons(call.args).find((b) => b.action_id === RequestActionId.approve)?.value);
      await waitForDm(d.t.slack, user, 'was received');
      return { call, id };
    },
    posts(poolId: string) {
      return d.t.sandbox.requests.filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/pool/${poolId}/license`));
    },
    store() {
      const store = d.t.deps.requests?.store;
      if (!store) throw new Error('no request store');
      return store;
    },
  };
  return d;
}

describe('course requests with a requests channel', () => {
  const d = driver();
  d.t = appPerFile('requests-bounds-', (dataDir) =>
    startTestApp({
      now: d.now,
      dataDir,
      admins: [TEST_USERS.admin, TEST_USERS.workspaceAdmin],
      slack: { users: [LEAVER, TURNED_GUEST, DROPPED, FLOW, WAITER, TIMED, EMOJI] },
      requests: { channel: CHANNEL, timers: requestTimers(24, 7) },
      waitlist: { offers: { hours: 0 } },
    }),
  );

  it.each([
    ['deactivated', LEAVER, { deleted: true }, 'they are no longer in the Slack workspace'],
    ['made a guest', TURNED_GUEST, { isRestricted: true }, 'they are now a guest of the workspace'],
  ])(
    'a requester %s after asking gets no license on Approve: nothing is written and the approver hears why',
    async (_how, user, change, why) => {
      expect((await d.submit(user.id, '2002')).status).toBe(200);
      const { id } = await d.cardFor(user.id);
      d.t.slack.setUser({ ...user, ...change });
      const before = d.posts('2002').length;
      const answer = await (await d.click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
      const text = textOf(answer.body.blocks);
      expect(text).toContain(`<@${user.id}> can no longer get a license: ${why}`);
      expect(text).toContain('Nothing was assigned');
      expect(d.posts('2002').length).toBe(before);
      expect((await d.store().get(id))?.status).toBe('pending');
      const audit = d.t.logs.filter((l) => l.message === 'audit' && l.requestId === id);
      expect(audit.map((l) => `${String(l.action)}:${String(l.outcome)}`)).toContain('approved:refused');
    },
  );

  it('the Workflow Builder step delivered twice (same execution id) makes one request and one card, and the step ends once, on the decision', async () => {
    const event = workflowStepEvent('Fx0BOUNDS01', {
      requester: FLOW.id,
      pool_id: '2002',
      workflow_name: 'New hire onboarding',
    });
    // Slack's retry arrives while the first delivery is still being handled, and once more later.
    const [a, b] = await Promise.all([d.t.event(event), d.t.event(event)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const { call: card, id } = await d.cardFor(FLOW.id);
    expect((await d.t.event(event)).status).toBe(200);
    await d.t.settled();
    const mine = (await d.store().byRequester(FLOW.id)).filter((r) => r.workflow?.executionId === 'Fx0BOUNDS01');
    expect(mine).toHaveLength(1);
    const cards = d.t.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === CHANNEL &&
        textOf(c.args.blocks).includes(`<@${FLOW.id}>`),
    );
    expect(cards).toHaveLength(1);
    expect(d.t.slack.calls.filter((c) => c.method.startsWith('functions.'))).toEqual([]);
    // After a restart (another process on the same DATA_DIR), a late retry finds the stored request.
    const restarted = await startTestApp({
      useSlack: d.t.slack,
      useSandbox: d.t.sandbox,
      admins: [TEST_USERS.admin],
      requests: { channel: CHANNEL, timers: requestTimers(24, 7) },
    });
    try {
      expect((await restarted.event(event)).status).toBe(200);
      await restarted.settled();
      expect(await restarted.deps.requests?.store.byRequester(FLOW.id)).toHaveLength(1);
    } finally {
      await restarted.close();
    }
    expect(d.t.slack.calls.filter((c) => c.method.startsWith('functions.'))).toEqual([]);
    // The card says a workflow chose the requester, and which.
    expect(textOf(card.args.blocks)).toContain('Sent by the Workflow Builder workflow “New hire onboarding”');
    expect(textOf(card.args.blocks)).toContain('`Wx0BOUNDS01`');

    await (await d.click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    await d.t.slack.waitForCall('functions.completeSuccess', (c) => c.args.function_execution_id === 'Fx0BOUNDS01');
    expect((await d.t.event(event)).status).toBe(200);
    await d.t.settled();
    const completions = d.t.slack.calls.filter((c) => c.method.startsWith('functions.'));
    expect(completions.map((c) => c.method)).toEqual(['functions.completeSuccess']);
  });

  it('a function_executed without its execution id is refused like any malformed event: a 400, no error line', async () => {
    const event = workflowStepEvent('Fx0BOUNDS02', { requester: FLOW.id, pool_id: '2005' });
    delete event.function_execution_id;
    const before = d.t.logs.length;
    const sent = await d.t.event(event);
    expect(sent.status).toBe(400);
    expect(sent.body).toContain('function_execution_id');
    await d.t.settled();
    const lines = d.t.logs.slice(before);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(await d.store().byRequester(FLOW.id)).toHaveLength(1);
  });

  it('the form and the card show how long the license would run; a short one is flagged', async () => {
    await d.t.command('request', { userId: TIMED.id });
    const form = await d.t.slack.waitForCall(
      'views.update',
      (c) => (c.args.view as { callback_id?: string }).callback_id === RequestCallbackId.form,
    );
    const endOf2004 = d.t.sandbox.inspect
      .pools()
      .find((p) => p.id === '2004')
      ?.end.slice(0, 10);
    expect(textOf(form.args.view)).toContain(`license runs to ${dayText(endOf2004 ?? '')} (21 days)`);
    await d.submit(TIMED.id, '2004');
    const { call } = await d.cardFor(TIMED.id);
    expect(textOf(call.args.blocks)).toMatch(
      /:warning: If approved now, the license runs to the pool’s end, [A-Z][a-z]{2} \d{1,2}, 2\d{3}: \*21 days\*/,
    );
  });

  it('"needed by" must be within a year and not after the pool’s end, with a sentence that says so', async () => {
    const far = await d.submit(TIMED.id, '2002', { neededBy: '9999-12-31' });
    const errors = JSON.parse(far.body) as { response_action: string; errors: Record<string, string> };
    expect(errors.response_action).toBe('errors');
    expect(errors.errors[RequestInputId.neededBy.block]).toMatch(
      /^Pick a date within a year \(by [A-Z][a-z]{2} \d{1,2}, \d{4}\)/,
    );
    // Pool 2004 ends in 21 days: a date two months out is after its end.
    const later = new Date(d.now().getTime() + 60 * DAY).toISOString().slice(0, 10);
    await d.submit(EMOJI.id, '2004', { neededBy: later });
    const shown = await d.shown(EMOJI.id, 'Needed by');
    // The pool's end as every date reads, never a raw ISO day.
    expect(textOf(shown.args.view)).toMatch(/The pool ends on [A-Z][a-z]{2} \d{1,2}, \d{4}, before that date/);
    expect(textOf(shown.args.view)).not.toMatch(/\d{4}-\d\d-\d\d/);
    expect(await d.store().byRequester(EMOJI.id)).toEqual([]);
  });

  it('a reason is counted as a person sees it: 100 emoji are 100 characters; beyond 500 the message says how it counts', async () => {
    const tooMany = await d.submit(EMOJI.id, '2005', { reason: ':smile:'.repeat(501) });
    const refused = JSON.parse(tooMany.body) as { errors: Record<string, string> };
    expect(refused.errors[RequestInputId.reason.block]).toBe(
      'Please keep the reason to 500 characters (an emoji counts as one); it has 501.',
    );
    const fine = await d.submit(EMOJI.id, '2005', { reason: `Team offsite ${':tada:'.repeat(100)} 👩‍👩‍👧‍👦` });
    expect(JSON.parse(fine.body).response_action).toBe('update');
    const { call, id } = await d.cardFor(EMOJI.id);
    expect(textOf(call.args.blocks)).toContain(':tada::tada:');
    // A denial's reason is counted the same way.
    const deny = (reason: string) => submitDenyReason(d.t, id, reason);
    const long = JSON.parse((await deny(':no_entry:'.repeat(501))).body) as { errors: Record<string, string> };
    expect(long.errors[RequestInputId.denyReason.block]).toContain('an emoji counts as one); it has 501.');
    expect((await d.store().get(id))?.status).toBe('pending');
    await deny(':no_entry:'.repeat(100));
    const denied = await waitForDm(d.t.slack, EMOJI.id, 'was denied');
    expect(textOf(denied.args.blocks)).toContain(`“${':no_entry:'.repeat(100)}”`);
    expect((await d.store().get(id))?.denyReason).toBe(':no_entry:'.repeat(100));
  });

  it('a 300,000-character reason, from the Workflow Builder step or the form, is refused as too long at once, without being measured', async () => {
    const huge = `${'Please, I need it. '.repeat(15_000)}${'x'.repeat(14_988)} 👩‍👩‍👧‍👦`;
    expect(huge.length).toBe(300_000);
    const tooLong =
      'Please keep the reason to 500 characters (an emoji counts as one); it has 300,000 characters written out.';
    const step = workflowStepEvent('Fx0BOUNDS03', { requester: FLOW.id, pool_id: '2005', reason: huge });
    expect((await d.t.event(step)).status).toBe(200);
    const failed = await d.t.slack.waitForCall(
      'functions.completeError',
      (c) => c.args.function_execution_id === 'Fx0BOUNDS03',
    );
    expect(failed.args.error).toBe(tooLong);
    const form = JSON.parse((await d.submit(EMOJI.id, '2005', { reason: huge })).body) as {
      errors: Record<string, string>;
    };
    expect(form.errors[RequestInputId.reason.block]).toBe(tooLong);
    // Nothing was taken in, and the app answers the next person as usual.
    expect((await d.store().byRequester(FLOW.id)).filter((r) => r.workflow?.executionId === 'Fx0BOUNDS03')).toEqual([]);
    expect((await d.t.command('help', { userId: TEST_USERS.admin })).status).toBe(200);
  });

  it('the deny form’s refusal is titled for denying, not for requesting', async () => {
    const sent = await d.t.viewSubmission(
      { view: { id: 'VDENYBND01', callback_id: RequestCallbackId.denyForm, private_metadata: 'r000000000000' } },
      { userId: TEST_USERS.nobody },
    );
    const view = (JSON.parse(sent.body) as { view: { title: { text: string } } }).view;
    expect(view.title.text).toBe('Deny the request');
    expect(textOf(view)).toContain('Only license admins');
  });

  it('an approval for a full pool: every card offers the choice, the requester hears where it stands, and it is reminded and expires', async () => {
    await d.submit(WAITER.id, '2003');
    const { id } = await d.cardFor(WAITER.id);
    const choice = await (await d.click(RequestActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(choice.body.blocks)).toContain('is full');
    const card = await d.t.slack.waitForCall(
      'chat.update',
      (c) => c.args.channel === CHANNEL && textOf(c.args.blocks).includes(`<@${WAITER.id}>`),
    );
    expect(textOf(card.args.blocks)).toContain('but the pool is full: no license yet');
    expect(buttons(card.args).map((b) => b.action_id)).toEqual([RequestActionId.recycle, RequestActionId.waitlist]);
    const told = await waitForDm(d.t.slack, WAITER.id, 'approved by');
    expect(textOf(told.args.blocks)).toContain('the pool is full, so there is no license yet');
    expect(textOf(told.args.blocks)).toContain('the request expires');

    const check = d.t.deps.requests?.check;
    d.offsetMs += 25 * 3_600_000;
    await check?.tick();
    const reminder = await d.t.slack.waitForCall(
      'chat.postMessage',
      (c) =>
        c.args.channel === CHANNEL &&
        c.args.thread_ts !== undefined &&
        textOf(c.args.blocks).includes(`<@${WAITER.id}>'s request`) &&
        textOf(c.args.blocks).includes('no seat has been found'),
    );
    expect(buttons(reminder.args).map((b) => b.action_id)).toEqual([RequestActionId.recycle, RequestActionId.waitlist]);
    // The approver, whose own message had the two buttons, is reminded by DM too (one sandbox marker).
    const toApprover = await waitForDm(d.t.slack, TEST_USERS.admin, 'no seat has been found');
    expect(String(toApprover.args.text).match(/\[Sandbox\]/g)).toHaveLength(1);

    d.offsetMs += 7 * DAY;
    await check?.tick();
    expect((await d.store().get(id))?.status).toBe('expired');
    const expired = await waitForDm(d.t.slack, WAITER.id, 'expired');
    expect(textOf(expired.args.blocks)).toContain('the pool stayed full and no seat was found in time');
    await d.t.slack.waitForCall(
      'chat.update',
      (c) => c.args.channel === CHANNEL && textOf(c.args.blocks).includes('no seat was found in time'),
    );
    const late = await (await d.click(RequestActionId.waitlist, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(late.body.blocks)).toContain('expired');
  });
});

describe('an approval after REQUESTERS changed', () => {
  it('a requester REQUESTERS no longer lists gets no license: nothing is written and the approver hears why', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'requests-requesters-'));
    // Both processes over the same records, as a restart over the same DATA_DIR.
    const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
    const requests = () => ({ channel: CHANNEL, timers: requestTimers(24, 7) });
    const first = await startTestApp({ slack: { users: [DROPPED] }, requests: requests(), records });
    let id = '';
    try {
      await first.viewSubmission({ view: poolOnlyRequestView('VREQDROP01', '2002') }, { userId: DROPPED.id });
      const card = await first.slack.waitForCall('chat.postMessage', (c) =>
        buttons(c.args).some((b) => b.action_id === RequestActionId.approve),
      );
      id = String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
      await first.settled();
    } finally {
      await first.close();
    }
    // The operator narrows REQUESTERS and restarts; the card's Approve still works.
    const second = await startTestApp({
      slack: { users: [DROPPED] },
      requesters: [TEST_USERS.viewer],
      requests: requests(),
      records,
    });
    try {
      const answer = await (
        await second.clickButton(RequestActionId.approve, id, { userId: TEST_USERS.admin })
      ).waitForResponse();
      expect(textOf(answer.body.blocks)).toContain(
        `<@${DROPPED.id}> can no longer get a license: REQUESTERS no longer lists them`,
      );
      expect(second.sandbox.requests.filter((r) => r.method === 'POST')).toEqual([]);
      expect((await second.deps.requests?.store.get(id))?.status).toBe('pending');
    } finally {
      await second.close();
      await records.close();
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
  });
});

describe('course requests when LICENSE_ADMINS names only a user group', () => {
  it('requests are taken and each member of the group gets the card by DM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'requests-onlygroup-'));
    const t = await startTestApp({
      admins: [ADMIN_GROUP],
      slack: { users: [GROUP_ADMIN], usergroups: { [ADMIN_GROUP]: [TEST_USERS.admin, GROUP_ADMIN.id] } },
      requests: { timers: requestTimers(24, 7) },
    });
    try {
      // The form opens: no "nobody to go to" refusal.
      await t.command('request 2002', { userId: TEST_USERS.nobody });
      await t.slack.waitForCall('views.update', (c) => textOf(c.args.view).includes('Mastering DAX · pool 2002'));
      await t.viewSubmission({ view: poolOnlyRequestView('VREQGRP001', '2002') }, { userId: TEST_USERS.nobody });
      const isCard = (c: SlackCall) => buttons(c.args).some((b) => b.action_id === RequestActionId.approve);
      await Promise.all(
        [TEST_USERS.admin, GROUP_ADMIN.id].map((admin) =>
          t.slack.waitForCall('chat.postMessage', (c) => c.args.channel === dmChannel(admin) && isCard(c)),
        ),
      );
    } finally {
      await t.close();
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
  });
});

describe('course requests without a requests channel, admins through a user group', () => {
  const d = driver();
  d.t = appPerFile('requests-group-', (dataDir) =>
    startTestApp({
      now: d.now,
      dataDir,
      admins: [TEST_USERS.admin, ADMIN_GROUP],
      slack: {
        users: [GROUP_ADMIN, MANY, LOOPER],
        usergroups: {
          [ADMIN_GROUP]: [TEST_USERS.admin, GROUP_ADMIN.id],
          [TEST_USERS.viewerGroup]: [TEST_USERS.groupViewer],
        },
      },
      requests: { timers: requestTimers(24, 7) },
    }),
  );

  it('each member of a LICENSE_ADMINS user group gets the card by DM', async () => {
    expect((await d.submit(TEST_USERS.nobody, '2002')).status).toBe(200);
    await d.shown(TEST_USERS.nobody, 'was sent to the license admins');
    const [toAdmin, toGroupAdmin] = await Promise.all([
      d.cardFor(TEST_USERS.nobody, dmChannel(TEST_USERS.admin)),
      d.cardFor(TEST_USERS.nobody, dmChannel(GROUP_ADMIN.id)),
    ]);
    expect(toAdmin.id).toBe(toGroupAdmin.id);
    expect(d.t.slack.calls.some((c) => c.method === 'usergroups.users.list' && c.args.usergroup === ADMIN_GROUP)).toBe(
      true,
    );
  });

  it('one person has at most 3 requests waiting at once; the fourth is refused with what to do', async () => {
    for (const pool of ['2001', '2002', '2004']) {
      await d.submit(MANY.id, pool);
      await d.shown(MANY.id, 'was sent to the license admins');
    }
    await d.submit(MANY.id, '2005');
    await d.shown(MANY.id, 'the most one person may have at once (3)');
    expect(await d.store().byRequester(MANY.id)).toHaveLength(3);
  });

  it('a request → cancel loop stops at 10 a day: the 11th is refused, and the loop edits one card per admin and one DM instead of posting more', async () => {
    const admins = [TEST_USERS.admin, GROUP_ADMIN.id];
    const about = (method: string, channel: string) =>
      d.t.slack.calls.filter(
        (c) => c.method === method && c.args.channel === channel && textOf(c.args.blocks).includes(`<@${LOOPER.id}>`),
      ).length;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      await d.submit(LOOPER.id, '2002');
      await d.t.settled();
      const open = (await d.store().byRequester(LOOPER.id)).find((r) => r.status === 'pending');
      if (!open) break;
      ids.push(open.id);
      await d.t.action(
        {
          actions: [
            { action_id: RequestActionId.cancel, block_id: 'b', type: 'button', value: open.id, action_ts: `${i}` },
          ],
        },
        { userId: LOOPER.id },
      );
      await d.t.settled();
    }
    const mine = await d.store().byRequester(LOOPER.id);
    expect(mine).toHaveLength(10);
    expect(mine.every((r) => r.status === 'cancelled')).toBe(true);
    await d.shown(LOOPER.id, 'the most one person may (10)');
    for (const admin of admins) {
      // One card per admin, rewritten for each new request (no new notification), each admin once.
      expect(about('chat.postMessage', dmChannel(admin))).toBe(1);
      expect(about('chat.update', dmChannel(admin))).toBeGreaterThanOrEqual(10);
    }
    // The requester: one "received" DM, rewritten for each request, and nothing for their own Cancel.
    const toLooper = d.t.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === dmChannel(LOOPER.id),
    );
    expect(toLooper).toHaveLength(1);
    // The one card showed each new request in turn: its Approve button named every one of them.
    const approvable = d.t.slack.calls
      .filter((c) => c.method === 'chat.update' && c.args.channel === dmChannel(TEST_USERS.admin))
      .map((c) => buttons(c.args.blocks).find((b) => b.action_id === RequestActionId.approve)?.value);
    for (const id of ids.slice(1)) expect(approvable).toContain(id);
    // A day later they may ask again.
    d.offsetMs += DAY + 60_000;
    await d.submit(LOOPER.id, '2002');
    await d.shown(LOOPER.id, 'was sent to the license admins');
  });

  it('decided requests are kept only as long as needed: the check drops old ones, keeps recent ones and the history stays in the audit trail', async () => {
    const store = d.store();
    const now = d.now().getTime();
    const decided = (id: string, ageDays: number): CourseRequest => {
      const at = new Date(now - ageDays * DAY).toISOString();
      return { ...sampleRequest(id), status: 'denied', createdAt: at, decidedAt: at, decidedBy: TEST_USERS.admin };
    };
    for (let i = 0; i < 40; i++) await store.put(decided(`r${String(i).padStart(12, 'a')}`, 40));
    await store.put(decided('rbbbbbbbbbbbb', 2));
    const before = (await store.byStatus('denied')).length;
    const result = await d.t.deps.requests?.check.tick();
    expect(result).toMatchObject({ pruned: 40 });
    const left = await store.byStatus('denied');
    expect(before - left.length).toBe(40);
    expect(left.map((r) => r.id)).toContain('rbbbbbbbbbbbb');
  });
});
