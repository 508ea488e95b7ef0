/**
 * Review fixes end to end: a recycle's default re-checked before the write; an outcome that still
 * reaches the person when the modal was closed or there is no channel; Revoke now using its fresh
 * read; buttons that fail out loud.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackId } from '../../src/slack/ids.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { callSandbox } from '../support/sandbox.js';
import {
  assignState,
  openModal,
  recycleState,
  type ShownView,
  settledView,
  submit,
  textOf,
  writes,
} from './change-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function recycleConfirmation(email: string): Promise<ShownView> {
  const form = await openModal(t, () => t.command('assign 2003'));
  const from = t.slack.calls.length;
  await submit(t, form, assignState({ pool: '2003', email, recycle: true }));
  const view = await settledView(t, form.id, from);
  expect(view.callback_id).toBe(CallbackId.recycleConfirm);
  return view;
}

describe('recycle default is re-checked before the write', () => {
  it('the named license ended meanwhile: no POST, the person is told which license would end now', async () => {
    const view = await recycleConfirmation('late@contoso.com');
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
    const view = await recycleConfirmation('ontime@contoso.com');
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
