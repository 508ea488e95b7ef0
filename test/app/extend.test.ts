/**
 * Change end date end to end: the command and the button open a modal with the current end,
 * the pool end and quick choices; rules first; a past date needs a second confirmation; the API's
 * refusal and an unclear PATCH are told plainly.
 */
import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId, InputId } from '../../src/kernel/blocks/ids.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  dayFromToday,
  extendState,
  modalProblems,
  openModal,
  type ShownView,
  settledView,
  submitKeepingAck,
  textOf,
  writes,
} from '../support/change-flow.js';

const endDay = (id: string) => t.sandbox.inspect.license(id)?.end.slice(0, 10);
const acks: Record<string, unknown>[] = [];

const t = appPerFile('extend-', () => startTestApp());

const quickValues = (view: ShownView) =>
  (
    view.blocks.find((b) => b.block_id === InputId.extendQuick.block) as
      | { element: { options: { value: string; text: { text: string } }[] } }
      | undefined
  )?.element.options ?? [];

/** Submits the form, its ack kept for the limits check. */
const send = (view: { id: string; callback_id: string; private_metadata?: string }, state: unknown) =>
  submitKeepingAck(t, acks, view, state);

describe('change end date', () => {
  it('/licenses extend <id> shows current end, pool end and quick choices; +30 days moves the end once', async () => {
    const view = await openModal(t, () => t.command('extend 4002'));
    expect(view.callback_id).toBe(CallbackId.extendForm);
    const text = textOf(view.blocks);
    expect(text).toContain('Current end');
    expect(text).toContain('Pool end');
    const labels = quickValues(view).map((o) => o.text.text);
    expect(labels.some((l) => l.startsWith('+30 days'))).toBe(true);
    expect(labels.some((l) => l.startsWith('Pool end'))).toBe(true);
    const plus30 = quickValues(view)[0]?.value.slice(4) ?? '';
    const before = t.sandbox.inspect.license('4002')?.end ?? '';
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const { ack } = await send(view, extendState({ quick: plus30 }));
    expect(ack.response_action).toBe('update');
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('Moved the end of license `4002` of *Mastering DAX* (pool `2001`)');
    // What the new date replaced, as the form showed it.
    expect(textOf(result.blocks)).toContain(`, ends ${dayText(plus30)} (it was ${dayText(before)})`);
    expect(endDay('4002')).toBe(plus30);
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual(['PATCH /v1/license/4002']);
  });

  it.each([
    ['nothing picked (it ends with its pool: no quick choice shown)', {}, 'Pick a date before'],
    ['both, different', { quick: dayFromToday(40), date: dayFromToday(50) }, 'not both'],
    ['after the pool end', { date: dayFromToday(200) }, 'after the pool ends'],
  ])('inline error without a write: %s', async (_name, values, words) => {
    const view = await openModal(t, () => t.command('extend 4003'));
    t.sandbox.clearRequests();
    const { ack } = await send(view, extendState(values));
    expect(ack.response_action).toBe('errors');
    expect(String((ack.errors as Record<string, string>)[InputId.extendDate.block])).toContain(words);
    expect(writes(t)).toEqual([]);
  });

  it('a license that already ends with its pool: no quick choice, and the date field says why, without an "Or"', async () => {
    const view = await openModal(t, () => t.command('extend 4003'));
    expect(view.callback_id).toBe(CallbackId.extendForm);
    expect(quickValues(view)).toEqual([]);
    const text = textOf(view.blocks);
    expect(text).not.toContain('Or a date');
    expect(text).toContain('Earlier end date');
    expect(text).toContain(
      'already ends with its pool, so it cannot be extended: only an earlier end date is possible',
    );
  });

  it('nothing picked where quick choices are shown: pick one of them or a date', async () => {
    const view = await openModal(t, () => t.command('extend 4002'));
    expect(quickValues(view).length).toBeGreaterThan(0);
    const { ack } = await send(view, extendState({}));
    expect(String((ack.errors as Record<string, string>)[InputId.extendDate.block])).toContain(
      'Pick a quick choice or a date.',
    );
  });

  it('a past date asks a second, explicit confirmation; only then the license ends', async () => {
    const view = await openModal(t, () => t.clickButton(ActionId.licenseChangeEndDate, '4005'));
    t.sandbox.clearRequests();
    const past = dayFromToday(-3);
    const { ack } = await send(view, extendState({ date: past }));
    // Pushed over the filled form: its Cancel goes back to the form, not out of it.
    expect(ack.response_action).toBe('push');
    const confirm = ack.view as ShownView;
    expect(confirm.callback_id).toBe(CallbackId.extendPastConfirm);
    expect((confirm as { close?: { text: string } }).close?.text).toBe('Cancel');
    // The day as every date reads, never the ISO day typed.
    expect(textOf(confirm.blocks)).toContain(`${dayText(past)} is in the past`);
    expect(textOf(confirm.blocks)).not.toContain(past);
    expect(textOf(confirm.blocks)).toContain('*ends now*');
    expect(textOf(confirm.blocks)).toContain('can never be edited again');
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.license('4005')?.active).toBe(true);
    const from = t.slack.calls.length;
    const confirmed = await send({ ...confirm, id: view.id }, { values: {} });
    // The working view and the result replace the confirmation; closing them closes the form under them too.
    expect((confirmed.ack.view as { clear_on_close?: boolean }).clear_on_close).toBe(true);
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain("can't be edited again");
    expect((result as { clear_on_close?: boolean }).clear_on_close).toBe(true);
    expect(t.sandbox.inspect.license('4005')?.active).toBe(false);
    expect(writes(t).map((r) => r.method)).toEqual(['PATCH']);
  });

  it('a license of an untransferable pool: the modal says why, and offers nothing to submit', async () => {
    t.sandbox.clearRequests();
    const view = await openModal(t, () => t.command('extend 4017'));
    expect(view.callback_id).toBe(CallbackId.changeInfo);
    expect(view.submit).toBeUndefined();
    expect(textOf(view.blocks)).toContain('not transferable');
    expect(writes(t)).toEqual([]);
  });

  it("beyond the pool end where the pre-check can't see it (no snapshot): the fresh read refuses, no PATCH", async () => {
    const view = { id: 'V0NOSNAPX1', callback_id: CallbackId.extendForm, private_metadata: '{"l":"4003"}' };
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await send(view, extendState({ date: dayFromToday(250) }));
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('that day is after the pool ends');
    expect(writes(t)).toEqual([]);
  });

  it('an unclear PATCH: read back, one PATCH, the user told what was found', async () => {
    const view = await openModal(t, () => t.command(`extend 4006 ${dayFromToday(100)}`));
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: 'reset', phase: 'after', method: 'PATCH', times: 1 });
    const from = t.slack.calls.length;
    await send(view, extendState({ date: dayFromToday(100) }));
    const result = await settledView(t, view.id, from);
    t.sandbox.clearFaults();
    expect(textOf(result.blocks)).toContain('read it back: the change is there');
    expect(endDay('4006')).toBe(dayFromToday(100));
    expect(writes(t).map((r) => r.method)).toEqual(['PATCH']);
  });

  it('every view is within Block Kit limits', () => {
    expect(modalProblems(t, acks)).toEqual([]);
  });
});
