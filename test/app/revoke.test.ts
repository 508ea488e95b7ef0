/**
 * Revoke end to end: the command and the Revoke… button ask for confirmation naming student,
 * course and pool and what follows; the confirmed message loses its buttons and shows the outcome.
 */
import { describe, expect, it } from 'vitest';
import { ActionId, ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { type RespondedRequest, startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf, writes } from '../support/change-flow.js';
import { isFinalReply } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import { until } from '../support/until.js';

const final = async (r: RespondedRequest) => {
  const post = await r.waitForResponse(isFinalReply);
  return { post, text: textOf(post.body.blocks), ids: buttons(post.body).map((b) => b.action_id) };
};

const t = appPerFile('revoke-', () => startTestApp());

const click = (actionId: string, licenseId: string, ts = `${Date.now() / 1000}`) =>
  t.action({
    container: { type: 'message', message_ts: ts, channel_id: 'C0LICOPS01', is_ephemeral: true },
    actions: [{ action_id: actionId, block_id: 'b', type: 'button', value: licenseId, action_ts: ts }],
  });

describe('revoke', () => {
  it('/licenses revoke <id>: a confirmation naming student, course, pool and what follows; no write', async () => {
    t.sandbox.clearRequests();
    const { text, ids, post } = await final(await t.command('revoke 4003'));
    expect(text).toContain('Giulia Tanaka');
    expect(text).toContain('giulia.tanaka@fabrikam.com');
    expect(text).toContain('Mastering DAX');
    expect(text).toContain('pool `2001`');
    expect(text).toContain('loses access to the course *now*');
    expect(text).toContain('the seat goes back to it');
    expect(ids).toEqual([ChangeActionId.revokeConfirm, ChangeActionId.revokeCancel]);
    expect(checkBlockKitLimits(post.body)).toEqual([]);
    expect(writes(t)).toEqual([]);
  });

  it('Revoke now: one DELETE, the seat back, the message replaced by the outcome without buttons', async () => {
    const before = t.sandbox.inspect.pool('2001')?.availableLicenses ?? 0;
    t.sandbox.clearRequests();
    const { text, ids, post } = await final(await click(ChangeActionId.revokeConfirm, '4003'));
    expect(post.body.replace_original).toBe(true);
    expect(text).toContain('Revoked license `4003`');
    expect(ids).toEqual([]);
    expect(t.sandbox.inspect.license('4003')?.active).toBe(false);
    expect(t.sandbox.inspect.pool('2001')?.availableLicenses).toBe(before + 1);
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /v1/license/4003']);
  });

  it('the Revoke… button on a license shows the same confirmation in place', async () => {
    const { post, ids } = await final(await t.clickButton(ActionId.licenseRevoke, '4004'));
    expect(post.body.replace_original).toBe(true);
    expect(ids).toContain(ChangeActionId.revokeConfirm);
  });

  it('Cancel: nothing changes', async () => {
    t.sandbox.clearRequests();
    const { text } = await final(await click(ChangeActionId.revokeCancel, '4004'));
    expect(text).toContain('Nothing was changed');
    expect(writes(t)).toEqual([]);
  });

  it('not offered where the license cannot be revoked (untransferable pool): says why', async () => {
    t.sandbox.clearRequests();
    const { text, ids } = await final(await t.command('revoke 4017'));
    expect(text).toContain("can't be revoked");
    expect(ids).toEqual([]);
    expect(writes(t)).toEqual([]);
  });

  it('a forged confirmation for that license is refused on the fresh read, and nothing is sent', async () => {
    t.sandbox.clearRequests();
    const { text } = await final(await click(ChangeActionId.revokeConfirm, '4018'));
    expect(text).toMatch(/can.t be revoked|cannot be revoked/);
    expect(t.sandbox.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(t.sandbox.inspect.license('4018')?.active).toBe(true);
  });

  it('a double click revokes once: one click answers, the other is ignored and logged', async () => {
    t.sandbox.clearRequests();
    const ignored = () => t.logs.filter((l) => l.message === 'repeated revoke click ignored' && l.licenseId === '4005');
    const seen = ignored().length;
    const ts = '1767225699.000200';
    const clicks = await Promise.all([
      click(ChangeActionId.revokeConfirm, '4005', ts),
      click(ChangeActionId.revokeConfirm, '4005', ts),
    ]);
    expect(clicks.map((c) => c.status)).toEqual([200, 200]);
    // Both handled: one click's outcome is posted, the other one's "ignored" line is logged.
    const { text } = await Promise.any(clicks.map((c) => final(c)));
    expect(text).toContain('Revoked license `4005`');
    await until('the ignored click to be logged', () => ignored().length > seen);
    expect(ignored()).toHaveLength(seen + 1);
    expect(clicks.filter((c) => c.responses().length === 0)).toHaveLength(1);
    expect(writes(t).filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(t.sandbox.inspect.license('4005')?.active).toBe(false);
  });

  it('an unclear DELETE: read back, one DELETE, the user told what was found', async () => {
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: 'reset', phase: 'after', method: 'DELETE', times: 1 });
    const { text } = await final(await click(ChangeActionId.revokeConfirm, '4006'));
    t.sandbox.clearFaults();
    expect(text).toContain('read it back: the change is there');
    expect(writes(t).filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(t.sandbox.inspect.license('4006')?.active).toBe(false);
  });

  it('a license revoked meanwhile: the API says it is no longer active', async () => {
    await final(await t.command('revoke 4007'));
    await final(await click(ChangeActionId.revokeConfirm, '4007'));
    const { text } = await final(await click(ChangeActionId.revokeConfirm, '4007'));
    expect(text).toContain('no longer active');
  });
});
