/**
 * A new course request survives SIGKILL between its commit and its messages: the member asks with the
 * signed request form, the card's post to the requests channel is held before Slack (so Slack never
 * takes it), the process is killed, and the next start on the same DATA_DIR sends what the outbox
 * kept. What is asserted is what people see: one card in the channel (with Approve), the requester's
 * "received" DM once, and nothing said twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { type KilledDesk, slackFields, startKilledDesk } from '../support/kill-restart.js';
import { requestFormView } from '../support/requests.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0REQUESTS2';
const POOL = '2005';
const REQUESTER = TEST_USERS.nobody;

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ env: { REQUESTS_CHANNEL: CHANNEL } });
});

afterEach(async () => {
  await desk?.close();
});

/** The cards Slack accepted in the requests channel for the requester's request. */
const cards = () =>
  desk.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.args.channel === CHANNEL &&
      allText(c.args.blocks).includes(`<@${REQUESTER}>`),
  );

describe('a new request, the process killed before its card reached Slack', () => {
  it('the next start posts the card once and tells the requester once', async () => {
    await desk.start();
    const held = desk.slackApi.hold({
      method: 'POST',
      path: /chat\.postMessage$/,
      body: (raw) => slackFields(raw).channel === CHANNEL,
      phase: 'before',
    });
    expect((await desk.submit(requestFormView('VKILLRCV1', POOL), REQUESTER)).status).toBe(200);
    await until('the card held on its way to Slack', () => held.request !== undefined, 15_000);
    await desk.kill();
    expect(cards()).toEqual([]);
    expect(desk.dmsTo(REQUESTER, 'was received')).toEqual([]);

    await desk.start();
    await until('the card posted after the restart', () => cards().length > 0, 30_000, 200);
    await until('the requester told it was received', () => desk.dmsTo(REQUESTER, 'was received').length > 0, 30_000);
    // A second card or DM would come right behind the first: give it the time to.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(cards()).toHaveLength(1);
    expect(buttons(cards()[0]?.args).map((b) => b.action_id)).toContain(RequestActionId.approve);
    expect(desk.dmsTo(REQUESTER, 'was received')).toHaveLength(1);
    expect(desk.repeatedDms(REQUESTER)).toEqual([]);
  });
});
