/**
 * A member's own requests, end to end: a waitlisted request can be cancelled like an undecided one
 * (in `/licenses requests` and on App Home), it leaves its line, the cancel is audited and the
 * requester sees it where they clicked; and a member's App Home (views.publish to the fake Slack)
 * lists their open requests with their place in line and Cancel. Signed requests in.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply, type SlackCall } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { sampleRequest, selfServiceTo, waitingForPool2003 } from '../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const NORA = { id: TEST_USERS.nobody, email: 'nora.quinn@acme-learning.example' };
const AHEAD = { id: 'U0MINEAHD1', email: 'ahead.mine@contoso.com' };
const FIRST = 'r00000000e001';
const NORA_WAITING = 'r00000000e002';
const NORA_HOME_WAITING = 'r00000000e003';
const NORA_PENDING = 'r00000000e004';

const t = appPerFile('requests-mine-', () => startTestApp({ admins: [TEST_USERS.admin], ...selfServiceTo(CHANNEL) }));
beforeAll(async () => {
  const at = new Date(Date.now() - 3_600_000);
  await waitingForPool2003(t, FIRST, AHEAD, at);
  await waitingForPool2003(t, NORA_WAITING, NORA, new Date(at.getTime() + 1000));
  await waitingForPool2003(t, NORA_HOME_WAITING, NORA, new Date(at.getTime() + 2000));
  await t.deps.requests?.store.put({ ...sampleRequest(NORA_PENDING), createdAt: new Date().toISOString() });
});

const line = async () => (await t.deps.waitlist?.entries('2003'))?.map((e) => e.requestId);
const statusOf = async (id: string) => (await t.deps.requests?.store.get(id))?.status;
const cancelledRows = () =>
  t.records?.db
    .selectFrom('audit')
    .select(['actor', 'action', 'outcome', 'requester', 'body'])
    .where('action', '=', 'cancelled')
    .execute();

/** The Home view published for Nora since `from` calls, once it shows `words`. */
async function publishedHome(from: number, words: string): Promise<SlackCall> {
  return t.slack.waitForCall(
    'views.publish',
    (c) => t.slack.calls.indexOf(c) >= from && c.args.user_id === NORA.id && allText(c.args.view).includes(words),
  );
}

describe("a member's own requests", () => {
  it('/licenses requests shows a waitlisted request with its place in line and a Cancel button', async () => {
    const reply = await (await t.command('requests', { userId: NORA.id })).waitForResponse(isFinalReply);
    const text = allText(reply.body.blocks);
    expect(text).toContain('on the waitlist for a seat, number 2 in line');
    const cancels = buttons(reply.body).filter((b) => b.action_id === RequestActionId.cancel);
    expect(cancels.map((b) => b.value).sort()).toEqual([NORA_WAITING, NORA_HOME_WAITING, NORA_PENDING].sort());
  });

  it('Cancel on a waitlisted request: it leaves the line, the cancel is audited, and the list shows it', async () => {
    expect(await line()).toEqual([FIRST, NORA_WAITING, NORA_HOME_WAITING]);
    const click = await t.clickButton(RequestActionId.cancel, NORA_WAITING, { userId: NORA.id });
    const text = allText((await click.waitForResponse()).body.blocks);
    expect(text).toContain('Request cancelled.');
    expect(text).toContain('Cancelled by the requester');
    expect(await statusOf(NORA_WAITING)).toBe('cancelled');
    expect(await line()).toEqual([FIRST, NORA_HOME_WAITING]);
    const rows = (await cancelledRows()) ?? [];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: NORA.id, outcome: 'done', requester: NORA.id });
    expect(JSON.parse(String(rows[0]?.body))).toMatchObject({ requestId: NORA_WAITING, courseTitle: 'Optimizing DAX' });
  });

  it("a member's App Home lists their open requests, with their place in line and Cancel, within Block Kit's limits", async () => {
    const from = t.slack.calls.length;
    await t.event({ type: 'app_home_opened', user: NORA.id, channel: 'D0NORAHOME', tab: 'home' });
    const published = await publishedHome(from, 'Your requests');
    const view = published.args.view;
    const text = allText(view);
    expect(text).toContain('*Optimizing DAX* (pool `2003`)');
    expect(text).toContain('on the waitlist, number 2 in line');
    expect(text).toContain('*Mastering DAX* (pool `2002`)');
    expect(text).toContain('waiting for a license admin');
    // The cancelled one is no longer listed.
    expect(text.match(/Optimizing DAX/g)).toHaveLength(1);
    const cancels = buttons(view).filter((b) => b.action_id === RequestActionId.cancel);
    expect(cancels.map((b) => b.value).sort()).toEqual([NORA_HOME_WAITING, NORA_PENDING].sort());
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });

  it('Cancel on App Home: the request leaves the line and Home is published again saying so', async () => {
    const from = t.slack.calls.length;
    await t.action(
      {
        container: { type: 'view', view_id: 'V0NORAHOME' },
        view: { id: 'V0NORAHOME', type: 'home' },
        channel: undefined,
        response_url: undefined,
        actions: [
          {
            action_id: RequestActionId.cancel,
            block_id: 'b',
            type: 'button',
            value: NORA_HOME_WAITING,
            action_ts: `${Date.now() / 1000}`,
          },
        ],
      },
      { userId: NORA.id },
    );
    const published = await publishedHome(from, 'You cancelled your request for *Optimizing DAX*');
    const text = allText(published.args.view);
    expect(text).not.toContain('on the waitlist');
    expect(await statusOf(NORA_HOME_WAITING)).toBe('cancelled');
    expect(await line()).toEqual([FIRST]);
    expect(((await cancelledRows()) ?? []).map((r) => JSON.parse(String(r.body)).requestId)).toContain(
      NORA_HOME_WAITING,
    );
  });
});
