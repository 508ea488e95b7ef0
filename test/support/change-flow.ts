/**
 * Helpers for the change flows' tests (signed end to end, and through the listener harness): open a
 * modal the way Slack would (a command, button or shortcut), read what the app put into it, submit it as a view_submission with
 * state.values shaped like fixtures/view-submission.json, and find the result the app wrote back.
 */

import { expect } from 'vitest';
import { alertLicenseBlockId, CallbackId, DeskActionId, InputId } from '../../src/kernel/blocks/ids.js';
import { checkModalLimits } from '../../src/kernel/blocks/limits.js';
import type { TestApp } from './app-harness.js';
import type { SlackCall } from './fake-slack.js';
import { interactionBody } from './slack-signing.js';

export interface ShownView {
  id: string;
  callback_id: string;
  private_metadata?: string;
  blocks: Record<string, unknown>[];
  title?: unknown;
  submit?: unknown;
}

const DAY_MS = 86_400_000;

/** The UTC day `offset` days from now (negative: before), as a datepicker sends it (YYYY-MM-DD). */
export function dayFromToday(offset: number): string {
  return new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function viewOf(call: SlackCall): ShownView {
  const view = call.args.view;
  if (!isObj(view)) throw new Error(`${call.method} without a view`);
  const id = String(call.args.view_id ?? '');
  return { ...(view as Omit<ShownView, 'id'>), id };
}

/** Every text in a view or message, joined (for assertions on what the person reads). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (!isObj(value)) return '';
  return Object.entries(value)
    .filter(([k]) => k !== 'private_metadata')
    .map(([, v]) => textOf(v))
    .join('\n');
}

const isWorking = (v: ShownView) => textOf(v.blocks).includes(':hourglass_flowing_sand:');

export function writes(t: TestApp) {
  return t.sandbox.requests.filter((r) => r.method !== 'GET');
}

/** The id of the modal opened from call `from` on: the local Slack does not record its answers, so the
 *  id is read from the app's first views.update after the views.open (the tests run one flow at a time). */
export async function openedViewId(t: TestApp, from: number): Promise<string> {
  const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
  const index = t.slack.calls.indexOf(open);
  const update = await t.slack.waitForCall('views.update', (c) => t.slack.calls.indexOf(c) > index);
  return String(update.args.view_id);
}

/** Waits for the modal `viewId` to show something other than a loading or working view. */
export async function settledView(t: TestApp, viewId: string, after = 0, timeoutMs = 10_000): Promise<ShownView> {
  const call = await t.slack.waitForCall(
    'views.update',
    (c) => t.slack.calls.indexOf(c) >= after && c.args.view_id === viewId && !isWorking(viewOf(c)),
    timeoutMs,
  );
  return viewOf(call);
}

/** Runs `start` and returns the filled modal it opened (loading view, then views.update). */
export async function openModal(t: TestApp, start: () => Promise<unknown>): Promise<ShownView> {
  const from = t.slack.calls.length;
  await start();
  const id = await openedViewId(t, from);
  return settledView(t, id, from);
}

export interface AssignValues {
  pool?: string;
  email?: string;
  user?: string;
  /**
   * The name typed. Left out with a typed e-mail, one is typed from the e-mail (`ada.king@x` → "Ada
   * King"), as a person must for a new student no Slack member is (the form asks for it); `null`
   * leaves the field empty (the Slack name of the member with that e-mail, or the form's error).
   */
  name?: string | null;
  end?: string;
  recycle?: boolean;
}

/** "ada.king@contoso.com" → "Ada King": the name a test types for a student it made up. */
function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

const sel = (value: string | undefined) => (value ? { value, text: { type: 'plain_text', text: value } } : null);

export function assignState(v: AssignValues) {
  const I = InputId;
  const name = v.name === undefined ? (v.email ? nameFromEmail(v.email) : undefined) : v.name;
  return {
    values: {
      [I.assignPool.block]: { [I.assignPool.action]: { type: 'static_select', selected_option: sel(v.pool) } },
      [I.assignEmail.block]: { [I.assignEmail.action]: { type: 'plain_text_input', value: v.email ?? null } },
      [I.assignUser.block]: { [I.assignUser.action]: { type: 'users_select', selected_user: v.user ?? null } },
      [I.assignName.block]: { [I.assignName.action]: { type: 'plain_text_input', value: name || null } },
      [I.assignEndDate.block]: { [I.assignEndDate.action]: { type: 'datepicker', selected_date: v.end ?? null } },
      [I.assignRecycle.block]: {
        [I.assignRecycle.action]: { type: 'checkboxes', selected_options: v.recycle ? [sel('recycle')] : [] },
      },
    },
  };
}

export function extendState(v: { quick?: string; date?: string }) {
  const I = InputId;
  return {
    values: {
      [I.extendQuick.block]: {
        [I.extendQuick.action]: { type: 'radio_buttons', selected_option: sel(v.quick && `day:${v.quick}`) },
      },
      [I.extendDate.block]: { [I.extendDate.action]: { type: 'datepicker', selected_date: v.date ?? null } },
    },
  };
}

export function recycleState(licenseId: string | undefined) {
  const I = InputId.recycleChoice;
  return { values: { [I.block]: { [I.action]: { type: 'static_select', selected_option: sel(licenseId) } } } };
}

export interface SubmitAnswer {
  status: number;
  ack: Record<string, unknown>;
}

export async function submit(
  t: TestApp,
  view: { id: string; callback_id: string; private_metadata?: string | undefined },
  state: unknown,
  userId?: string,
): Promise<SubmitAnswer> {
  const r = await t.viewSubmission(
    {
      view: {
        id: view.id,
        callback_id: view.callback_id,
        private_metadata: view.private_metadata ?? '',
        state,
      },
    },
    userId ? { userId } : {},
  );
  return { status: r.status, ack: r.body ? (JSON.parse(r.body) as Record<string, unknown>) : {} };
}

/** Like `submit`, and keeps the ack in `acks`, for modalProblems(t, acks) to check the views it carries too. */
export async function submitKeepingAck(
  t: TestApp,
  acks: Record<string, unknown>[],
  view: { id: string; callback_id: string; private_metadata?: string | undefined },
  state: unknown,
  userId?: string,
): Promise<SubmitAnswer> {
  const answer = await submit(t, view, state, userId);
  acks.push(answer.ack);
  return answer;
}

/**
 * `/licenses assign 2003` (the demo's full, transferable pool), "free a seat" ticked for `email`, submitted:
 * the recycle confirmation the app shows in place of the form, and the submission's ack. The sandbox's
 * request log is cleared once the form is open, so `writes(t)` then holds only what the submission sent.
 */
export async function recycleConfirmation(
  t: TestApp,
  email: string,
): Promise<{ view: ShownView; ack: Record<string, unknown> }> {
  const form = await openModal(t, () => t.command('assign 2003'));
  t.sandbox.clearRequests();
  const from = t.slack.calls.length;
  const { ack } = await submit(t, form, assignState({ pool: '2003', email, recycle: true }));
  const view = await settledView(t, form.id, from);
  expect(view.callback_id).toBe(CallbackId.recycleConfirm);
  return { view, ack };
}

/**
 * The admin picks `licenseId` in the recycle confirmation's "which license ends" menu (a block action in
 * the open modal, with the view's `hash`): the `views.update` that rebuilds the confirmation around it.
 */
export async function pickInRecycleConfirmation(
  t: TestApp,
  view: ShownView,
  licenseId: string,
  hash: string,
): Promise<SlackCall> {
  const from = t.slack.calls.length;
  await t.action({
    container: { type: 'view', view_id: view.id },
    response_url: undefined,
    view: { id: view.id, hash, callback_id: CallbackId.recycleConfirm, private_metadata: view.private_metadata },
    actions: [
      {
        action_id: InputId.recycleChoice.action,
        block_id: InputId.recycleChoice.block,
        type: 'static_select',
        selected_option: { value: licenseId, text: { type: 'plain_text', text: licenseId } },
        action_ts: '1',
      },
    ],
  });
  return t.slack.waitForCall('views.update', (c) => t.slack.calls.indexOf(c) >= from && c.args.view_id === view.id);
}

/** A global shortcut payload (platform.md: type "shortcut"), signed like Slack signs it. */
export function shortcut(t: TestApp, userId: string) {
  const payload = {
    type: 'shortcut',
    token: 'qWeRtY1234567890AsDfGhJk',
    action_ts: `${Date.now() / 1000}`,
    team: { id: 'T0ACME0001', domain: 'acme-learning' },
    user: { id: userId, username: 'u', team_id: 'T0ACME0001' },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: CallbackId.assignShortcut,
    trigger_id: `${Date.now()}.1.e2eshortcut`,
  };
  return t.send(interactionBody(payload));
}

/** Every view the app opened, updated or pushed, and every view in an ack, checked against Slack's limits. */
export function modalProblems(t: TestApp, acks: Record<string, unknown>[] = []): string[] {
  const views = t.slack.calls
    .filter((c) => c.method.startsWith('views.'))
    .map((c) => c.args.view)
    .concat(acks.map((a) => a.view).filter((v) => v !== undefined));
  return views.flatMap((v, i) => checkModalLimits(v).map((p) => `view ${i}: ${p}`));
}

/** A "Let it end" click on a license-ending alert in `channel`, as Slack sends it (the message included). */
export function clickLetItEnd(
  t: TestApp,
  channel: string,
  licenseId: string,
  message: { ts: string } & Record<string, unknown>,
  userId?: string,
) {
  return t.action(
    {
      actions: [
        {
          action_id: DeskActionId.alertLetEnd,
          block_id: alertLicenseBlockId(licenseId),
          type: 'button',
          value: licenseId,
          action_ts: '1',
        },
      ],
      message,
      container: { type: 'message', message_ts: message.ts, channel_id: channel, is_ephemeral: false },
      channel: { id: channel, name: 'license-alerts' },
    },
    { ...(userId ? { userId } : {}), channelId: channel },
  );
}
