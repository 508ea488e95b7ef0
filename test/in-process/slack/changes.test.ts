/**
 * The change surfaces through the app's listeners, without a process (listener harness): the Revoke…
 * button and its confirmation (actions/revoke.ts), the change buttons that open the end-date form
 * (actions/change-buttons.ts), its submission (views/extend-submit.ts) and the global shortcut's assign
 * form (shortcuts/assign-shortcut.ts). Asserted: what the admin reads and can click, and the licensing
 * writes. The signed-HTTP versions are in test/app (revoke, extend, assign).
 */
import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId, ChangeActionId } from '../../../src/kernel/blocks/ids.js';
import { checkModalLimits } from '../../../src/kernel/blocks/limits.js';
import { appPerFile } from '../../support/app-per-file.js';
import {
  dayFromToday,
  extendState,
  openModal,
  settledView,
  shortcut,
  submit,
  textOf,
  writes,
} from '../../support/change-flow.js';
import { seen, startListenerApp, TEST_USERS } from '../../support/listener-harness.js';

const t = appPerFile('changes-', () => startListenerApp());

async function click(actionId: string, value: string, userId: string = TEST_USERS.admin) {
  const r = await t.clickButton(actionId, value, { userId });
  expect(r.status).toBe(200);
  const last = r.responses().at(-1);
  if (!last) throw new Error(`no reply to the ${actionId} click`);
  return { ...seen(last), body: last.body };
}

describe('Revoke…', () => {
  it('asks first: student, course, pool and what follows, with Revoke now and Cancel; nothing written', async () => {
    t.sandbox.clearRequests();
    const ask = await click(ActionId.licenseRevoke, '4004');
    expect(ask.text).toContain('Mastering DAX');
    expect(ask.text).toContain('pool `2001`');
    expect(ask.text).toContain('loses access to the course *now*');
    expect(ask.buttons).toEqual([ChangeActionId.revokeConfirm, ChangeActionId.revokeCancel]);
    expect(writes(t)).toEqual([]);
  });

  it('Cancel leaves the license as it was', async () => {
    t.sandbox.clearRequests();
    const cancelled = await click(ChangeActionId.revokeCancel, '4004');
    expect(cancelled.buttons).toEqual([]);
    expect(t.sandbox.inspect.license('4004')?.active).toBe(true);
    expect(writes(t)).toEqual([]);
  });

  it('Revoke now: one DELETE, the message replaced by the outcome without buttons', async () => {
    t.sandbox.clearRequests();
    const done = await click(ChangeActionId.revokeConfirm, '4004');
    expect(done.body.replace_original).toBe(true);
    expect(done.text).toContain('Revoked license `4004`');
    expect(done.buttons).toEqual([]);
    expect(t.sandbox.inspect.license('4004')?.active).toBe(false);
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /v1/license/4004']);
  });

  it('a viewer who clicks it is refused and nothing is written', async () => {
    t.sandbox.clearRequests();
    const refused = await click(ChangeActionId.revokeConfirm, '4005', TEST_USERS.viewer);
    expect(refused.text).toMatch(/license admin/i);
    expect(refused.buttons).toEqual([]);
    expect(t.sandbox.inspect.license('4005')?.active).toBe(true);
    expect(writes(t)).toEqual([]);
  });
});

describe('Change end date…', () => {
  it('opens the form with the current end and the pool end; a date submitted moves the end once', async () => {
    const view = await openModal(t, () => t.clickButton(ActionId.licenseChangeEndDate, '4006'));
    expect(view.callback_id).toBe(CallbackId.extendForm);
    expect(textOf(view.blocks)).toContain('Current end');
    expect(textOf(view.blocks)).toContain('Pool end');
    expect(checkModalLimits(view)).toEqual([]);
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const { ack } = await submit(t, view, extendState({ date: dayFromToday(100) }));
    expect(ack.response_action).toBe('update');
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('Moved the end of license `4006`');
    expect(t.sandbox.inspect.license('4006')?.end.slice(0, 10)).toBe(dayFromToday(100));
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual(['PATCH /v1/license/4006']);
  });

  it('a submission with nothing picked is answered on the form, with nothing written', async () => {
    const view = await openModal(t, () => t.clickButton(ActionId.licenseChangeEndDate, '4002'));
    t.sandbox.clearRequests();
    const { ack } = await submit(t, view, extendState({}));
    expect(ack.response_action).toBe('errors');
    expect(Object.values(ack.errors as Record<string, string>).join(' ')).toContain('Pick a quick choice or a date.');
    expect(writes(t)).toEqual([]);
  });
});

describe('the Assign shortcut', () => {
  it('opens the assign form for an admin, with the running pools to choose from', async () => {
    const view = await openModal(t, () => shortcut(t, TEST_USERS.admin));
    expect(view.callback_id).toBe(CallbackId.assignForm);
    expect(textOf(view.blocks)).toContain('Mastering DAX');
    expect(checkModalLimits(view)).toEqual([]);
  });
});
