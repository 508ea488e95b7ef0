/** Course-request fixtures shared by the request tests: a request record, and self-service in a directory. */
import { expect } from 'vitest';
import { RequestActionId, RequestCallbackId, RequestInputId } from '../../src/kernel/blocks/ids.js';
import type { CourseRequest } from '../../src/requests/domain/requests.js';
import { requestTimers } from '../../src/requests/domain/requests.js';
import type { TestApp, TestAppOptions } from './app-harness.js';
import { textOf } from './change-flow.js';
import { TEST_USERS } from './fake-slack.js';
import { allText, buttons } from './fixtures.js';

/** A pending request of a member with no role for pool 2002 (Mastering DAX). */
export function sampleRequest(id: string): CourseRequest {
  return {
    id,
    requester: 'U0NOROLE01',
    requesterEmail: 'nora.quinn@acme-learning.example',
    poolId: '2002',
    courseTitle: 'Mastering DAX',
    createdAt: '2026-11-23T08:00:00.000Z',
    status: 'pending',
    source: 'command',
    cards: [],
  };
}

/**
 * An approved request of `requester` for `poolId` (Optimizing DAX), put straight into `t`'s records and
 * joined to the pool's waitlist as an approver's click would: what a full pool's approval leaves.
 */
export async function joinWaitlist(t: TestApp, id: string, requester: { id: string; email: string }, poolId: string) {
  const r: CourseRequest = {
    id,
    requester: requester.id,
    requesterEmail: requester.email,
    poolId,
    courseTitle: 'Optimizing DAX',
    createdAt: new Date().toISOString(),
    status: 'approved',
    decidedBy: TEST_USERS.admin,
    source: 'command',
    cards: [],
  };
  await t.deps.requests?.store.put(r);
  return t.deps.requests?.service.toWaitlist(id, TEST_USERS.admin);
}

/**
 * Requests and the waitlist (in the app's own records unless `records` is given), cards to `channel`
 * (or the admins' DMs without one), default timers; a freed seat is assigned at once (no offers).
 */
export function selfServiceTo(channel?: string): Pick<TestAppOptions, 'requests' | 'waitlist'> {
  const timers = requestTimers(24, 7);
  return { requests: channel ? { channel, timers } : { timers }, waitlist: { offers: { hours: 0 } } };
}

/**
 * The request form's view as Slack sends it on submission: the pool picked, and the optional reason
 * and "needed by" day (`null` when left empty, as Slack sends an empty input).
 */
export function requestFormView(
  viewId: string,
  poolId: string,
  extra: { reason?: string | undefined; neededBy?: string | undefined } = {},
) {
  return {
    id: viewId,
    callback_id: RequestCallbackId.form,
    private_metadata: JSON.stringify({ s: 'command' }),
    state: {
      values: {
        [RequestInputId.pool.block]: {
          [RequestInputId.pool.action]: { type: 'static_select', selected_option: { value: poolId } },
        },
        [RequestInputId.reason.block]: {
          [RequestInputId.reason.action]: { type: 'plain_text_input', value: extra.reason ?? null },
        },
        [RequestInputId.neededBy.block]: {
          [RequestInputId.neededBy.action]: { type: 'datepicker', selected_date: extra.neededBy ?? null },
        },
      },
    },
  };
}

/**
 * The request form's view with only the course input in its state (no reason or "needed by" input in
 * the payload), carrying the form's private_metadata when `source` is given.
 */
export function poolOnlyRequestView(viewId: string, poolId: string, source?: 'command') {
  return {
    id: viewId,
    callback_id: RequestCallbackId.form,
    ...(source !== undefined ? { private_metadata: JSON.stringify({ s: source }) } : {}),
    state: {
      values: {
        [RequestInputId.pool.block]: {
          [RequestInputId.pool.action]: { type: 'static_select', selected_option: { value: poolId } },
        },
      },
    },
  };
}

/**
 * `user` asks for `poolId` with the signed request form (view `viewId`); once the card reached the requests
 * channel `channel` and the requester's "was received" DM went out: the request id on the card's Approve.
 */
export async function requestedThroughForm(
  t: TestApp,
  o: { channel: string; user: string; poolId: string; viewId: string },
): Promise<string> {
  await t.viewSubmission({ view: requestFormView(o.viewId, o.poolId) }, { userId: o.user });
  const card = await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === o.channel && textOf(c.args.blocks).includes(`<@${o.user}>`),
  );
  await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === `D${o.user.slice(1)}` && textOf(c.args.blocks).includes('was received'),
  );
  return String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
}

/** A click by `userId` on a button of a message (`ts`) in the requests channel `channel`, signed as Slack sends it. */
export function clickInRequestsChannel(
  t: TestApp,
  where: { channel: string; ts: string },
  actionId: string,
  value: string,
  userId: string,
) {
  return t.action(
    {
      container: { type: 'message', message_ts: where.ts, channel_id: where.channel },
      channel: { id: where.channel, name: 'license-requests' },
      actions: [{ action_id: actionId, block_id: 'b', type: 'button', value, action_ts: `${Date.now() / 1000}` }],
    },
    { userId, channelId: where.channel },
  );
}

/** Workflow Builder runs the request step (function_executed, execution `executionId`), as Slack sends it. */
export function workflowStepEvent(executionId: string, inputs: Record<string, string>): Record<string, unknown> {
  return {
    type: 'function_executed',
    function: {
      id: 'Fn0REQUEST1',
      callback_id: RequestCallbackId.workflowStep,
      title: 'Request a course license',
      type: 'app',
    },
    inputs,
    function_execution_id: executionId,
    workflow_execution_id: `Wx${executionId.slice(2)}`,
    bot_access_token: 'xwfp-test',
  };
}

/**
 * An approved request by `requester` for pool 2003 (Optimizing DAX, full in the demo), decided by the
 * license admin at `at`, joined to the pool's waitlist: the request the next freed seat goes to.
 */
export async function waitingForPool2003(
  t: TestApp,
  id: string,
  requester: { id: string; email: string },
  at: Date,
): Promise<CourseRequest> {
  const request: CourseRequest = {
    id,
    requester: requester.id,
    requesterEmail: requester.email,
    poolId: '2003',
    courseTitle: 'Optimizing DAX',
    createdAt: at.toISOString(),
    status: 'approved',
    decidedBy: TEST_USERS.admin,
    decidedAt: at.toISOString(),
    source: 'command',
    cards: [],
  };
  await t.deps.requests?.store.put(request);
  expect(await t.deps.requests?.service.toWaitlist(id, TEST_USERS.admin)).toMatchObject({ kind: 'joined' });
  return request;
}

/** An admin submits the Deny form of request `id` with `reason`: the submission's answer. */
export function submitDenyReason(t: TestApp, id: string, reason: string, userId: string = TEST_USERS.admin) {
  return t.viewSubmission(
    {
      view: {
        id: 'VDENY00001',
        callback_id: RequestCallbackId.denyForm,
        private_metadata: id,
        state: {
          values: {
            [RequestInputId.denyReason.block]: {
              [RequestInputId.denyReason.action]: { type: 'plain_text_input', value: reason },
            },
          },
        },
      },
    },
    { userId },
  );
}

/** The outputs a workflow step completes with once its request is approved: the seat `email` was given in `poolId`. */
export function approvedStepOutputs(t: TestApp, poolId: string, email: string): Record<string, unknown> {
  const license = t.sandbox.inspect.licenses({ poolId }).find((l) => l.student.email === email);
  return { status: 'approved', license_id: license?.id, end_date: license?.end.slice(0, 10) };
}

/** Waits for the card about `user`'s request in `channel` to be updated to say `words`. */
export function cardUpdated(t: TestApp, channel: string, user: string, words: string) {
  return t.slack.waitForCall(
    'chat.update',
    (c) =>
      c.args.channel === channel &&
      textOf(c.args.blocks).includes(`<@${user}>`) &&
      textOf(c.args.blocks).includes(words),
  );
}

/**
 * `waiter` asks for a seat in `poolId` through the request form; `admin` approves it and puts it on
 * the waitlist (the pool is full) from the card in `channel`: it ends first in line.
 */
export async function waitlistedRequest(
  t: TestApp,
  o: { channel: string; admin: string; waiter: string; viewId: string; poolId: string; messageTs: string },
): Promise<void> {
  await t.viewSubmission({ view: requestFormView(o.viewId, o.poolId) }, { userId: o.waiter });
  const card = await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === o.channel && allText(c.args.blocks).includes(`<@${o.waiter}>`),
  );
  const id = String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
  const click = (actionId: string) =>
    t.action(
      {
        container: { type: 'message', message_ts: o.messageTs, channel_id: o.channel },
        channel: { id: o.channel, name: 'license-requests' },
        actions: [{ action_id: actionId, block_id: 'b', type: 'button', value: id, action_ts: `${Date.now() / 1000}` }],
      },
      { userId: o.admin, channelId: o.channel },
    );
  await (await click(RequestActionId.approve)).waitForResponse();
  const added = await (await click(RequestActionId.waitlist)).waitForResponse();
  expect(allText(added.body.blocks)).toContain('On the waitlist, number 1');
}
