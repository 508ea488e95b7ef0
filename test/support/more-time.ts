/**
 * "Ask for more time" through signed requests (test/app/more-time*.test.ts): the learner's click and
 * form, the approvers' card in `channel` and its buttons, the demo's students and licenses as the
 * sandbox seeds them.
 */
import { buildDemoData } from '../../local/sandbox/index.js';
import { ExtensionActionId, ExtensionInputId } from '../../src/kernel/blocks/ids.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { TestApp } from './app-harness.js';
import { openModal, type ShownView, submit, textOf } from './change-flow.js';
import { waitForDm } from './dms.js';
import { buttons } from './fixtures.js';

/** The demo's students as the sandbox seeds them: a learner in Slack has the e-mail of a license's student. */
const seed = buildDemoData(new Date());
export const emailOf = (licenseId: string) => {
  const studentId = seed.licenses.find((l) => l.id === licenseId)?.studentId;
  return seed.students.find((s) => s.id === studentId)?.email ?? '';
};

/** A Slack member who holds `license`: their e-mail is its student's. */
export const learnerHolding = (id: string, license: string) => ({ id, license, email: emailOf(license) });

export function moreTimeFlow(t: TestApp, channel: string, now: () => Date) {
  const day = (offsetDays: number) => new Date(now().getTime() + offsetDays * DAY_MS).toISOString().slice(0, 10);
  const endOf = (id: string) => t.sandbox.inspect.license(id)?.end.slice(0, 10) ?? '';

  /** The learner's click on "Ask for more time" of `licenseId`, and the view it settles on. */
  const askFor = (user: string, licenseId: string) =>
    openModal(t, () => t.clickButton(ExtensionActionId.moreTime, licenseId, { userId: user }));

  const formState = (endDate: string | null, reason: string | null) => ({
    values: {
      [ExtensionInputId.endDate.block]: {
        [ExtensionInputId.endDate.action]: { type: 'datepicker', selected_date: endDate },
      },
      [ExtensionInputId.reason.block]: {
        [ExtensionInputId.reason.action]: { type: 'plain_text_input', value: reason },
      },
    },
  });

  const send = (user: string, form: ShownView, endDate: string | null, reason: string | null) =>
    submit(t, form, formState(endDate, reason), user);

  /** The card posted to the requests channel for `user`'s ask (since call `from`), and the request id on its buttons. */
  async function cardFor(user: string, from = 0) {
    const call = await t.slack.waitForCall(
      'chat.postMessage',
      (c) =>
        t.slack.calls.indexOf(c) >= from &&
        c.args.channel === channel &&
        !c.args.thread_ts &&
        textOf(c.args.blocks).includes(`<@${user}> asks for more time`),
    );
    await waitForDm(t.slack, user, 'was sent to the license admins');
    const approve = buttons(call.args).find((b) => b.action_id === ExtensionActionId.approve);
    return { call, id: String(approve?.value) };
  }

  const clickCard = (actionId: string, id: string, userId: string) =>
    t.action(
      {
        container: { type: 'message', message_ts: '1767225600.000200', channel_id: channel },
        channel: { id: channel, name: 'license-requests' },
        actions: [{ action_id: actionId, block_id: 'b', type: 'button', value: id, action_ts: `${Date.now() / 1000}` }],
      },
      { userId, channelId: channel },
    );

  const cardUpdate = (words: string) =>
    t.slack.waitForCall('chat.update', (c) => c.args.channel === channel && textOf(c.args.blocks).includes(words));

  return { day, endOf, askFor, send, cardFor, clickCard, cardUpdate };
}
