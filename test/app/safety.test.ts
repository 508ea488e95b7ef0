/**
 * Safety end to end: the role is asked on every click and submission, never read from a
 * payload; a viewer clicking an admin's message or submitting a forged form changes nothing; forged
 * private_metadata fails; every refused attempt is audited.
 */
import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId, ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { type RespondedRequest, startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  assignState,
  extendState,
  recycleState,
  settledView,
  shortcut,
  submit,
  textOf,
  writes,
} from '../support/change-flow.js';
import { isFinalReply } from '../support/fake-slack.js';
import { until } from '../support/until.js';

const final = async (r: RespondedRequest) => textOf((await r.waitForResponse(isFinalReply)).body.blocks);

const t = appPerFile('safety-', () => startTestApp());

const audits = () => t.logs.filter((l) => l.message === 'audit');

/** The audit line is written after the answer: wait for it. */
async function auditsAfter(count: number): Promise<Record<string, unknown>[]> {
  await until(`${count} audit lines`, () => audits().length >= count, 2_000);
  return audits();
}

describe('the role, on every click and submission', () => {
  it("a viewer clicking an admin's Revoke now is refused, the message stays, nothing changes", async () => {
    t.sandbox.clearRequests();
    const seen = audits().length;
    const r = await t.clickButton(ChangeActionId.revokeConfirm, '4001', { userId: TEST_USERS.viewer });
    const post = await r.waitForResponse();
    expect(textOf(post.body.blocks)).toContain('Only license admins can change licenses');
    expect(post.body.replace_original).toBe(false);
    expect(t.sandbox.requests).toEqual([]);
    expect(t.sandbox.inspect.license('4001')?.active).toBe(true);
    expect((await auditsAfter(seen + 1)).at(-1)).toMatchObject({
      actor: TEST_USERS.viewer,
      action: 'revoke',
      outcome: 'refused',
    });
  });

  it('a forged button value on a refused Revoke is not written to the audit trail as a license id', async () => {
    const seen = audits().length;
    const forged = '`*bold*` <!channel>';
    const r = await t.clickButton(ChangeActionId.revokeConfirm, forged, { userId: TEST_USERS.viewer });
    expect(textOf((await r.waitForResponse()).body.blocks)).toContain('Only license admins can change licenses');
    const entry = (await auditsAfter(seen + 1)).at(-1);
    expect(entry).toMatchObject({ actor: TEST_USERS.viewer, action: 'revoke', outcome: 'refused' });
    expect(entry?.licenseId).toBeUndefined();
    expect(JSON.stringify(entry)).not.toContain('bold');
  });

  it.each([
    [ActionId.poolAssign, '2001'],
    [ActionId.licenseChangeEndDate, '4001'],
    [ChangeActionId.revokeCancel, '4001'],
  ])('a viewer clicking %s gets no modal and no licensing call', async (actionId, value) => {
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const text = await final(await t.clickButton(actionId, value, { userId: TEST_USERS.nobody }));
    expect(text).toContain('Only license admins');
    expect(t.slack.calls.slice(from).some((c) => c.method === 'views.open')).toBe(false);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('a viewer typing /licenses assign, extend or revoke is told changes are for admins, and it is audited', async () => {
    for (const text of ['assign 2001', 'extend 4001', 'revoke 4001']) {
      expect(await final(await t.command(text, { userId: TEST_USERS.viewer }))).toContain('Only license admins');
    }
    const byCommand = () => audits().filter((a) => String(a.detail).includes('(command)'));
    await until('the three refusals audited', () => byCommand().length >= 3, 2_000);
    expect(
      byCommand()
        .map((a) => a.action)
        .sort(),
    ).toEqual(['assign', 'extend', 'revoke']);
    expect(writes(t)).toEqual([]);
  });

  it('the shortcut for a viewer opens a refusal, never the form', async () => {
    const from = t.slack.calls.length;
    await shortcut(t, TEST_USERS.viewer);
    const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    expect(textOf(open.args.view)).toContain('Only license admins');
  });

  it.each([
    ['assign', CallbackId.assignForm, '{}', assignState({ pool: '2007', email: 'x@contoso.com' })],
    ['recycle', CallbackId.recycleConfirm, '{"p":"2003","e":"x@contoso.com"}', recycleState('4030')],
    ['extend', CallbackId.extendForm, '{"l":"4001"}', extendState({ date: '2000-01-01' })],
    ['past-date confirmation', CallbackId.extendPastConfirm, '{"l":"4001","d":"2000-01-01"}', { values: {} }],
  ])(
    'a viewer submitting a forged %s form is refused in the modal; no write',
    async (_name, callback_id, meta, state) => {
      t.sandbox.clearRequests();
      const { ack } = await submit(
        t,
        { id: 'V0FORGED01', callback_id, private_metadata: meta },
        state,
        TEST_USERS.viewer,
      );
      expect(ack.response_action).toBe('update');
      expect(textOf(ack.view)).toContain('Only license admins');
      expect(writes(t)).toEqual([]);
    },
  );
});

describe('forged private_metadata', () => {
  it('claiming to be an admin in the metadata changes nothing for a viewer', async () => {
    t.sandbox.clearRequests();
    const meta = JSON.stringify({ l: '4001', role: 'admin', user: TEST_USERS.admin, d: '2000-01-01' });
    const { ack } = await submit(
      t,
      { id: 'V0FORGED02', callback_id: CallbackId.extendPastConfirm, private_metadata: meta },
      { values: {} },
      TEST_USERS.nobody,
    );
    expect(textOf(ack.view)).toContain('Only license admins');
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.license('4001')?.active).toBe(true);
  });

  it.each([
    ['not JSON', 'admin=1'],
    ['a hostile id', '{"p":"../../v1/pools","e":"x@contoso.com"}'],
    ['no pool', '{"e":"x@contoso.com"}'],
    ['an oversized e-mail', JSON.stringify({ p: '2003', e: `${'a'.repeat(300)}@contoso.com` })],
  ])('an admin submitting a recycle confirmation with %s: "expired or altered", no write', async (_name, meta) => {
    t.sandbox.clearRequests();
    const { ack } = await submit(
      t,
      { id: 'V0FORGED03', callback_id: CallbackId.recycleConfirm, private_metadata: meta },
      recycleState('4030'),
    );
    expect(textOf(ack.view)).toContain('expired or was altered');
    expect(writes(t)).toEqual([]);
  });

  it('a forged channel in the metadata gets no reply there; the assign itself still happens', async () => {
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const seen = audits().length;
    const view = { id: 'V0FORGED04', callback_id: CallbackId.assignForm, private_metadata: '{"c":"<!channel>"}' };
    const { ack } = await submit(t, view, assignState({ pool: '2007', email: 'x@contoso.com' }));
    expect(ack.response_action).toBe('update');
    // The metadata fails its schema, so there is no channel: the result shows in the modal only.
    expect(textOf((await settledView(t, view.id, from)).blocks)).toContain('Assigned');
    // The reply (if any) is sent after the result and before the audit line: once that is written, it is settled.
    expect((await auditsAfter(seen + 1)).at(-1)).toMatchObject({ action: 'assign', outcome: 'done' });
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/pool/2007/license']);
    const ephemerals = t.slack.calls.slice(from).filter((c) => c.method === 'chat.postEphemeral');
    expect(ephemerals.filter((c) => c.args.channel === '<!channel>')).toEqual([]);
    expect(ephemerals).toEqual([]);
  });
});
