/**
 * Changes that re-check and always tell, end to end: a recycle's default re-checked before the write;
 * an outcome that still reaches the person when the modal was closed or there is no channel; Revoke
 * now using its fresh read; buttons that fail out loud.
 */
import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId, ChangeActionId, DeskActionId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  assignState,
  openModal,
  recycleConfirmation,
  recycleState,
  settledView,
  shortcut,
  submit,
  textOf,
  writes,
} from '../support/change-flow.js';
import { callSandbox } from '../support/sandbox.js';

const t = appPerFile('changes-recheck-and-tell-', () => startTestApp());

describe('recycle default is re-checked before the write', () => {
  it('the named license ended meanwhile: no POST, the person is told which license would end now', async () => {
    const { view } = await recycleConfirmation(t, 'late@contoso.com');
    const named = (JSON.parse(view.private_metadata ?? '{}') as { x?: string }).x;
    expect(named).toBe('4024');
    expect((await callSandbox(t.sandbox, 'DELETE', '/v1/license/4024')).status).toBe(200);
    // The seat it freed is taken by someone else, so the pool is full again with another oldest license.
    const taken = await callSandbox(t.sandbox, 'POST', '/v1/pool/2003/license', { body: { email: 'x@contoso.com' } });
    expect(taken.status).toBeLessThan(300);
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await submit(t, view, recycleState('4024'));
    const result = await settledView(t, view.id, from);
    const text = textOf(result.blocks);
    expect(writes(t)).toEqual([]);
    expect(text).toContain('Things changed since the confirmation');
    expect(text).toContain('license `4025`');
    expect(t.sandbox.inspect.student({ email: 'late@contoso.com' })).toBeUndefined();
  });

  it('still the pick: one POST with recycle, and the result names the license that ended', async () => {
    const { view } = await recycleConfirmation(t, 'ontime@contoso.com');
    const named = (JSON.parse(view.private_metadata ?? '{}') as { x?: string }).x ?? '';
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await submit(t, view, recycleState(named));
    const result = await settledView(t, view.id, from);
    expect(writes(t).map((r) => r.method)).toEqual(['POST']);
    expect(textOf(result.blocks)).toContain(`Ended license \`${named}\``);
    expect(t.sandbox.inspect.license(named)?.active).toBe(false);
  });
});

describe('the outcome reaches the person when the modal is gone', () => {
  const dmsSince = (from: number) => t.slack.calls.slice(from).filter((c) => c.method === 'chat.postMessage');

  it('from the shortcut (no channel), the modal closed meanwhile: the outcome comes by DM', async () => {
    const form = await openModal(t, () => shortcut(t, TEST_USERS.admin));
    const from = t.slack.calls.length;
    t.slack.answer('views.update', { ok: false, error: 'not_found' }, 1);
    await submit(t, form, assignState({ pool: '2001', email: 'closed.modal@contoso.com' }));
    const dm = await t.slack.waitForCall('chat.postMessage', (c) => t.slack.calls.indexOf(c) >= from);
    expect(String(dm.args.channel)).toMatch(/^D/);
    expect(textOf(dm.args.blocks)).toContain('Assigned license');
    expect(t.slack.calls.slice(from).map((c) => c.method)).toContain('conversations.open');
  });

  it('from a command, the modal closed: the channel reply tells them, and no DM is needed', async () => {
    const form = await openModal(t, () => t.command('assign 2001'));
    const from = t.slack.calls.length;
    t.slack.answer('views.update', { ok: false, error: 'not_found' }, 1);
    await submit(t, form, assignState({ pool: '2001', email: 'closed.again@contoso.com' }));
    const reply = await t.slack.waitForCall('chat.postEphemeral', (c) => t.slack.calls.indexOf(c) >= from);
    expect(textOf(reply.args.blocks)).toContain('Assigned license');
    expect(dmsSince(from)).toEqual([]);
  });

  it('the modal still open: it shows the outcome, and no DM is sent', async () => {
    const form = await openModal(t, () => shortcut(t, TEST_USERS.admin));
    const from = t.slack.calls.length;
    await submit(t, form, assignState({ pool: '2001', email: 'open.modal@contoso.com' }));
    expect(textOf((await settledView(t, form.id, from)).blocks)).toContain('Assigned license');
    expect(dmsSince(from)).toEqual([]);
  });
});

describe('Revoke now uses its fresh read', () => {
  const revokeClick = (licenseId: string, ts: string) =>
    t.action({
      container: { type: 'message', message_ts: ts, channel_id: 'C0LICOPS01', is_ephemeral: true },
      actions: [
        { action_id: ChangeActionId.revokeConfirm, block_id: 'b', type: 'button', value: licenseId, action_ts: ts },
      ],
    });

  it('the license was revoked elsewhere after the confirmation: no DELETE, the person is told', async () => {
    const shown = await t.command('revoke 4006');
    const confirm = await shown.waitForResponse((p) => textOf(p.body.blocks).includes('Revoke now'));
    expect(textOf(confirm.body.blocks)).toContain('4006');
    expect((await callSandbox(t.sandbox, 'DELETE', '/v1/license/4006')).status).toBe(200);
    t.sandbox.clearRequests();
    const click = await revokeClick('4006', '1767225700.000300');
    const post = await click.waitForResponse((p) => !String(p.body.text).includes('Working on it'));
    expect(textOf(post.body.blocks)).toContain("can't be revoked");
    expect(writes(t)).toEqual([]);
  });
});

describe('buttons do not fail silently', () => {
  const since = (from: number, method: string) => t.slack.calls.slice(from).filter((c) => c.method === method);

  it('Assign on a pool whose modal Slack would not open: the person is told', async () => {
    t.slack.answer('views.open', { ok: false, error: 'expired_trigger_id' }, 1);
    const click = await t.clickButton(ActionId.poolAssign, '2001');
    const post = await click.waitForResponse();
    expect(textOf(post.body.blocks)).toContain('did not open the window');
  });

  it('Retry assign by someone who is no admin (any more): the modal says so', async () => {
    const from = t.slack.calls.length;
    const meta = JSON.stringify({ p: '2003', e: 'retry@contoso.com', r: '4029' });
    await t.action(
      {
        container: { type: 'view', view_id: 'V0RETRY001' },
        view: { id: 'V0RETRY001', hash: 'h1', callback_id: CallbackId.changeInfo, private_metadata: meta },
        actions: [
          { action_id: ChangeActionId.retryAssign, block_id: 'retry', type: 'button', value: 'retry', action_ts: '1' },
        ],
      },
      { userId: TEST_USERS.viewer },
    );
    const shown = await settledView(t, 'V0RETRY001', from);
    expect(textOf(shown.blocks)).toContain('Only license admins');
  });

  it('a refused click from the Home tab (no response_url) is told by DM', async () => {
    const from = t.slack.calls.length;
    await t.action(
      {
        container: { type: 'view', view_id: 'VHOMEU0VIEW0001' },
        response_url: undefined,
        actions: [{ action_id: ActionId.licenseRevoke, block_id: 'b', type: 'button', value: '4010', action_ts: '1' }],
      },
      { userId: TEST_USERS.viewer },
    );
    const dm = await t.slack.waitForCall('chat.postMessage', (c) => t.slack.calls.indexOf(c) >= from);
    expect(textOf(dm.args.blocks)).toContain('Only license admins');
  });

  it('Let it end without the desk: told alerts are not set up, and the alert is left as it was', async () => {
    const from = t.slack.calls.length;
    const click = await t.clickButton(DeskActionId.alertLetEnd, '4010');
    const post = await click.waitForResponse();
    expect(textOf(post.body.blocks)).toContain('not set up');
    expect(since(from, 'chat.update')).toEqual([]);
  });
});
