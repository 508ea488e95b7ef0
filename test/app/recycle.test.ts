/**
 * Recycle end to end: a full transferable pool (demo pool 2003, 8 of 8 used) offers to free
 * a seat; a confirmation names the license that will end (the API's own pick by default) before
 * anything is sent; a chosen license is revoked first; an assign that fails after a revoke says where
 * things stand and offers Retry assign.
 */
import { describe, expect, it } from 'vitest';
import { CallbackId, ChangeActionId, InputId } from '../../src/kernel/blocks/ids.js';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  modalProblems,
  pickInRecycleConfirmation,
  recycleConfirmation,
  recycleState,
  type ShownView,
  settledView,
  submit,
  textOf,
  writes,
} from '../support/change-flow.js';

const t = appPerFile('recycle-', () => startTestApp());

const active = () => t.sandbox.inspect.licenses({ poolId: '2003' }).map((l) => l.id);

/** Opens the assign form for 2003, ticks "free a seat", and returns the confirmation view: shown before any write. */
async function confirmation(email: string): Promise<ShownView> {
  const { view, ack } = await recycleConfirmation(t, email);
  expect(ack.response_action).toBe('update');
  expect(writes(t)).toEqual([]);
  return view;
}

const choiceBlock = (view: ShownView) =>
  view.blocks.find((b) => b.block_id === InputId.recycleChoice.block) as {
    element: { options: { value: string }[]; initial_option?: { value: string } };
  };

describe('recycle', () => {
  it('names the default license (oldest start), its student, e-mail, start and progress, before any write', async () => {
    const view = await confirmation('newcomer@contoso.com');
    const text = textOf(view.blocks);
    expect(text).toContain('is full');
    expect(text).toContain('Alberto Rossi');
    expect(text).toContain('alberto.rossi@contoso.com');
    expect(text).toMatch(/started [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(text).toMatch(/% of the course done|completed the course/);
    expect(choiceBlock(view).element.initial_option?.value).toBe('4024');
    expect(choiceBlock(view).element.options).toHaveLength(8);
  });

  it('picking another license: the confirmation then names that one, with its progress; the picker promises only what it shows', async () => {
    const view = await confirmation('picker@contoso.com');
    const hint = textOf(view.blocks.find((b) => b.block_id === InputId.recycleChoice.block));
    expect(hint).not.toContain('whose course is completed');
    expect(hint).toContain('its course progress then shows above');
    const other =
      choiceBlock(view)
        .element.options.map((o) => o.value)
        .find((v) => v !== '4024') ?? '';
    const license = t.sandbox.inspect.license(other);
    const row = t.sandbox.inspect
      .student({ email: license?.student.email ?? '' })
      ?.courses.find((c) => c.licenseId === other);
    expect(row).toBeDefined();
    t.sandbox.clearRequests();
    const update = await pickInRecycleConfirmation(t, view, other, 'h-confirm');
    expect(update.args.hash).toBe('h-confirm');
    const shown = textOf((update.args.view as ShownView).blocks);
    expect(shown).toContain('The license that ends, as you picked:');
    expect(shown).toContain(license?.student.name ?? '?');
    expect(shown).toContain(`license \`${other}\``);
    expect(shown).toContain(
      row?.completed ? 'completed the course' : `${Math.round(row?.progress ?? -1)} % of the course done`,
    );
    // The default is named only as what was picked instead of (the sections; the picker lists everyone).
    const sections = textOf(
      ((update.args.view as ShownView).blocks ?? []).filter((b) => b.block_id !== InputId.recycleChoice.block),
    );
    expect(sections).not.toContain('By default the licensing service ends');
    expect(sections).not.toContain('alberto.rossi@contoso.com');
    expect(choiceBlock(update.args.view as ShownView).element.initial_option?.value).toBe(other);
    // One read for the progress, nothing written.
    expect(t.sandbox.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /v1/student']);
  });

  it('the default: one POST with recycle, the oldest license ends, the newcomer holds a seat', async () => {
    const view = await confirmation('newcomer@contoso.com');
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const { ack } = await submit(t, view, recycleState('4024'));
    expect(ack.response_action).toBe('update');
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('Assigned license');
    // The course is named by its title, as everywhere else, not by its id.
    expect(textOf(result.blocks)).toContain('of *Optimizing DAX* (pool `2003`)');
    expect(textOf(result.blocks)).not.toContain('course `302`');
    expect(writes(t).map((r) => r.method)).toEqual(['POST']);
    expect(t.sandbox.inspect.license('4024')?.active).toBe(false);
    expect(t.sandbox.inspect.pool('2003')?.availableLicenses).toBe(0);
    expect(t.sandbox.inspect.student({ email: 'newcomer@contoso.com' })?.courses[0]?.poolId).toBe('2003');
  });

  it('a chosen license: DELETE that one, then POST without recycle; the oldest stays', async () => {
    const view = await confirmation('second@contoso.com');
    const oldest = choiceBlock(view).element.initial_option?.value;
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await submit(t, view, recycleState('4030'));
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('Ended license `4030`');
    expect(textOf(result.blocks)).toContain('of *Optimizing DAX* (pool `2003`)');
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /v1/license/4030',
      'POST /v1/pool/2003/license',
    ]);
    expect(t.sandbox.inspect.license('4030')?.active).toBe(false);
    expect(active()).toContain(oldest);
  });

  it('the assign fails after the revoke: exactly where things stand, and Retry assign gives the seat', async () => {
    const view = await confirmation('third@contoso.com');
    t.sandbox.addFault({ kind: '500', method: 'POST', times: 1 });
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await submit(t, view, recycleState('4029'));
    const result = await settledView(t, view.id, from);
    t.sandbox.clearFaults();
    const text = textOf(result.blocks);
    expect(text).toContain('License `4029`');
    expect(text).toContain('*was revoked*, so its seat is free now');
    expect(text).toContain('third@contoso.com did not go through');
    expect(text).toContain('Retry assign');
    expect(t.sandbox.inspect.license('4029')?.active).toBe(false);
    expect(t.sandbox.inspect.pool('2003')?.availableLicenses).toBe(1);

    const meta = JSON.parse(result.private_metadata ?? '{}') as Record<string, unknown>;
    expect(meta).toMatchObject({ p: '2003', e: 'third@contoso.com', r: '4029' });
    const retryFrom = t.slack.calls.length;
    t.sandbox.clearRequests();
    const click = {
      container: { type: 'view', view_id: view.id },
      view: {
        id: view.id,
        hash: 'h-after-failure',
        callback_id: CallbackId.changeInfo,
        private_metadata: result.private_metadata,
      },
      actions: [
        { action_id: ChangeActionId.retryAssign, block_id: 'retry', type: 'button', value: 'retry', action_ts: '1' },
      ],
    };
    // A double click: the same view and hash twice.
    await Promise.all([t.action(click), t.action(click)]);
    const retried = await settledView(t, view.id, retryFrom);
    expect(textOf(retried.blocks)).toContain('Assigned license');
    expect(textOf(retried.blocks)).toContain('of *Optimizing DAX* (pool `2003`)');
    expect(writes(t).map((r) => r.method)).toEqual(['POST']);
    expect(t.sandbox.inspect.pool('2003')?.availableLicenses).toBe(0);
  });

  it('a chosen license of another pool: nothing is sent', async () => {
    const view = await confirmation('fourth@contoso.com');
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await submit(t, view, recycleState('4001'));
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('License `4001` is not a license of pool `2003`');
    expect(writes(t)).toEqual([]);
  });

  it('every view is within Block Kit limits', () => {
    expect(modalProblems(t)).toEqual([]);
  });
});
