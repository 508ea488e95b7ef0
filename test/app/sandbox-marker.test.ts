/**
 * Sandbox mode: every reply carries a visible sandbox marker, modals included. The assign
 * modal's loading view (views.open), its form (views.update), the "working" view of a submission
 * (the ack's response_action update) and the result all start with the marker; with sandbox mode
 * off, none of them shows it.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_MARKER } from '../../src/kernel/blocks/common.js';
import { CallbackId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  assignState,
  modalProblems,
  openedViewId,
  settledView,
  submit,
  textOf,
  viewOf,
} from '../support/change-flow.js';

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

const MARKER_BLOCK = { type: 'context', elements: [{ type: 'mrkdwn', text: SANDBOX_MARKER }] };
const firstBlock = (view: unknown) => (view as { blocks?: unknown[] } | undefined)?.blocks?.[0];

/** `/licenses assign`, then an errors-free submission: every view the person sees on the way. */
async function assignFlow(t: TestApp, email: string) {
  const from = t.slack.calls.length;
  await t.command(`assign 2007 ${email} ${day(30)}`);
  const viewId = await openedViewId(t, from);
  const opened = t.slack.calls.slice(from).find((c) => c.method === 'views.open');
  const form = await settledView(t, viewId, from);
  expect(form.callback_id).toBe(CallbackId.assignForm);
  const before = t.slack.calls.length;
  const answer = await submit(t, { ...form, id: viewId }, assignState({ pool: '2007', email }));
  expect(answer.status).toBe(200);
  expect(answer.ack.response_action).toBe('update');
  const result = await settledView(t, viewId, before);
  expect(textOf(result.blocks)).toContain(':white_check_mark:');
  return { loading: opened?.args.view, form, working: answer.ack.view, result, ack: answer.ack };
}

describe('sandbox mode on: modals carry the marker', () => {
  const t = appPerFile('sandbox-marker-', () => startTestApp());

  it('the loading view, the form, the working view (ack) and the result start with the marker, once', async () => {
    const { loading, form, working, result, ack } = await assignFlow(t, 'marker.on@contoso.com');
    expect(textOf(loading)).toContain('Reading your pools');
    expect(textOf(working)).toContain(':hourglass_flowing_sand:');
    for (const view of [loading, form, working, result]) {
      expect(firstBlock(view)).toEqual(MARKER_BLOCK);
      expect(textOf(view).split(SANDBOX_MARKER)).toHaveLength(2);
    }
    const views = t.slack.calls.filter((c) => c.method.startsWith('views.')).map(viewOf);
    expect(views.length).toBeGreaterThanOrEqual(3);
    for (const view of views) expect(firstBlock(view)).toEqual(MARKER_BLOCK);
    expect(modalProblems(t, [ack])).toEqual([]);
  });
});

describe('sandbox mode off: no marker anywhere', () => {
  const t = appPerFile('sandbox-marker-', () => startTestApp({ sandboxMode: false }));

  it('the same flow shows no sandbox marker', async () => {
    expect(t.deps.sandbox).toBe(false);
    const { loading, form, working, result, ack } = await assignFlow(t, 'marker.off@contoso.com');
    for (const view of [loading, form, working, result]) expect(textOf(view)).not.toContain(SANDBOX_MARKER);
    const views = t.slack.calls.filter((c) => c.method.startsWith('views.')).map(viewOf);
    for (const view of views) expect(textOf(view)).not.toContain(SANDBOX_MARKER);
    expect(modalProblems(t, [ack])).toEqual([]);
  });
});
