/**
 * While License Desk is stopping (the stop in src/kernel/config/shutdown.ts has set the tracker to draining), every
 * surface that reaches it says "License Desk is restarting; try again in a minute" where the person
 * looks, runs no listener, sends nothing to the licensing service, and loses nothing typed.
 * src/main.ts's SIGTERM path is covered in shutdown.test.ts; here the same middleware is driven
 * through the harness, one surface at a time.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CallbackId, DeskActionId, InputId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { extendState, shortcut, textOf } from '../support/change-flow.js';
import { until } from '../support/until.js';

const RESTARTING = 'License Desk is restarting; try again in a minute.';

const t = appPerFile('draining-', () => startTestApp());
beforeAll(async () => {
  t.work.startDraining();
});
beforeEach(() => t.sandbox.clearRequests());

const callsFrom = (from: number, method: string) => t.slack.calls.slice(from).filter((c) => c.method === method);

describe('while stopping', () => {
  it('a slash command is acknowledged with the restarting sentence, ephemeral, and nothing else runs', async () => {
    const from = t.slack.calls.length;
    const r = await t.command('pools', { userId: TEST_USERS.viewer });
    expect(r.status).toBe(200);
    const ack = JSON.parse(r.body) as Record<string, unknown>;
    expect(ack).toMatchObject({ response_type: 'ephemeral' });
    expect(textOf(ack)).toContain(RESTARTING);
    expect(t.sandbox.requests).toEqual([]);
    expect(t.slack.calls.slice(from)).toEqual([]);
  });

  it('a button under a message gets the sentence in a new ephemeral message; the clicked one stays', async () => {
    const r = await t.clickButton('license_revoke', '4001');
    expect(r.status).toBe(200);
    const post = await r.waitForResponse();
    expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(textOf(post.body)).toContain(RESTARTING);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('a Home tab button opens a small modal with the sentence and leaves the Home view alone', async () => {
    const from = t.slack.calls.length;
    const r = await t.action({
      container: { type: 'view', view_id: 'VHOMEU0MGR' },
      view: { id: 'VHOMEU0MGR', type: 'home', callback_id: '' },
      response_url: undefined,
      channel: undefined,
      actions: [{ action_id: DeskActionId.homeRefresh, block_id: 'home', type: 'button', value: 'refresh' }],
    });
    expect(r.status).toBe(200);
    const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    expect(textOf(open.args.view)).toContain(RESTARTING);
    expect(callsFrom(from, 'views.publish')).toEqual([]);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('a form submission gets the sentence as an error on its first input: the form keeps what was typed', async () => {
    const r = await t.viewSubmission({
      view: {
        id: 'V0DRAIN001',
        callback_id: CallbackId.extendForm,
        blocks: [
          { type: 'section', block_id: 'facts', text: { type: 'mrkdwn', text: 'License 4002' } },
          { type: 'input', block_id: InputId.extendQuick.block, element: { type: 'radio_buttons' } },
          { type: 'input', block_id: InputId.extendDate.block, element: { type: 'datepicker' } },
        ],
        state: extendState({ date: '2099-01-01' }),
      },
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({
      response_action: 'errors',
      errors: { [InputId.extendQuick.block]: RESTARTING },
    });
    expect(t.sandbox.requests).toEqual([]);
  });

  it('a confirmation without inputs gets the sentence pushed on top, so closing it returns to the confirmation', async () => {
    const r = await t.viewSubmission({
      view: {
        id: 'V0DRAIN002',
        callback_id: CallbackId.extendPastConfirm,
        blocks: [{ type: 'section', block_id: 'confirm', text: { type: 'mrkdwn', text: 'End it now?' } }],
      },
    });
    expect(r.status).toBe(200);
    const ack = JSON.parse(r.body) as Record<string, unknown>;
    expect(ack.response_action).toBe('push');
    expect(textOf(ack.view)).toContain(RESTARTING);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('the global shortcut opens a small modal with the sentence', async () => {
    const from = t.slack.calls.length;
    const r = await shortcut(t, TEST_USERS.admin);
    expect(r.status).toBe(200);
    const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    expect(textOf(open.args.view)).toContain(RESTARTING);
    expect(textOf(open.args.view)).not.toContain('Assign');
  });

  it('opening App Home publishes nothing: it keeps its last view', async () => {
    const from = t.slack.calls.length;
    const r = await t.event({ type: 'app_home_opened', user: TEST_USERS.admin, channel: 'D0HOME0001', tab: 'home' });
    expect(r.status).toBe(200);
    // Turned away before any listener runs: once the log says so, no publish can follow.
    await until('the drain', () =>
      t.logs.some(
        (l) => l.message === 'turned away: License Desk is stopping' && l.request === 'event_callback app_home_opened',
      ),
    );
    expect(callsFrom(from, 'views.publish')).toEqual([]);
  });
});
