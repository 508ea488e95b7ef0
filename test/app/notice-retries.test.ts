/**
 * Messages to people survive Slack's errors (docs/records.md, "The outbox"): a notice whose Slack call
 * is answered `ok: false` is tried again later and arrives once; a part already delivered (the
 * approver's DM of a waitlist seat) is not sent again; one Slack never takes is given up loudly: an
 * error line naming its kind, and a warning on the admins' App Home. Signed requests in, the recording
 * fake Slack out; the clock is moved past each retry's pause and the outbox flushed, never waited for.
 */
import { describe, expect, it } from 'vitest';
import { ChangeActionId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { retryPauseMs } from '../../src/kernel/services/outbox.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';
import { movableClock } from '../support/clock.js';
import { dmChannel } from '../support/dms.js';
import {
  clickInRequestsChannel,
  requestedThroughForm,
  selfServiceTo,
  submitDenyReason,
  waitingForPool2003,
} from '../support/requests.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0REQUESTS1';
const WAITER = { id: 'U0WAITRETR', email: 'wanda.retry@contoso.com' };
const FAILING = { id: 'U0FAILDM01', email: 'fay.failing@contoso.com' };

const clock = movableClock();
const t = appPerFile('notice-retries-', (dataDir) =>
  startTestApp({
    now: clock.now,
    dataDir,
    slack: {
      users: [
        { id: WAITER.id, name: 'wanda.retry', email: WAITER.email },
        { id: FAILING.id, name: 'fay.failing', email: FAILING.email },
      ],
    },
    ...selfServiceTo(CHANNEL),
  }),
);

/** The DMs to `user` that say `words`. */
const dmsTo = (user: string, words: string) =>
  t.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' && c.args.channel === dmChannel(user) && textOf(c.args.blocks).includes(words),
  );

/** The next try of every message that failed is due: the clock passes its pause, and the outbox sends. */
async function nextTry(tries: number): Promise<void> {
  clock.advance(retryPauseMs(tries) + 1_000);
  await t.outbox?.flush();
}

/** A request by `user` for `poolId`, its card posted and its "received" DM sent: the request id. */
const requested = (user: string, poolId: string) =>
  requestedThroughForm(t, { channel: CHANNEL, user, poolId, viewId: `VREQ${user}` });

describe('a message to a person after a Slack error', () => {
  it('the requester’s "the seat is yours" DM answered internal_error once arrives on the retry, exactly once', async () => {
    const member = TEST_USERS.nobody;
    const id = await requested(member, '2005');
    // Slack answers the next post (the requester's DM, sent after the approval) with an error.
    t.slack.answer('chat.postMessage', { ok: false, error: 'internal_error' }, 1);
    const approved = await clickInRequestsChannel(
      t,
      { channel: CHANNEL, ts: '1767225600.000200' },
      RequestActionId.approve,
      id,
      TEST_USERS.admin,
    );
    expect(textOf((await approved.waitForResponse()).body.blocks)).toMatch(/Approved: license `\d+` assigned/);
    await until('the first try of the DM', () => dmsTo(member, 'is yours').length === 1);
    await t.settled();
    expect(dmsTo(member, 'is yours')).toHaveLength(1); // the failed one, not yet tried again

    await nextTry(1);
    await until('the DM tried again', () => dmsTo(member, 'is yours').length === 2);
    // Later rounds send nothing more: the DM was delivered once.
    await nextTry(2);
    await nextTry(3);
    const dms = dmsTo(member, 'is yours');
    expect(dms).toHaveLength(2);
    const rows = await t.records?.db.selectFrom('outbox').select(['state', 'attempts', 'body']).execute();
    const row = rows?.find((r) => r.body.includes(id) && r.body.includes('"assigned"'));
    expect(row).toMatchObject({ state: 'sent', attempts: 2 });
    expect(
      t.logs.some(
        (l) => l.message === 'a message to a person could not be delivered yet; trying again later' && l.kind,
      ),
    ).toBe(true);
  });

  it('a waitlist seat: the requester’s failed DM is sent again, the approver’s DM that got through is not', async () => {
    const at = clock.now();
    await waitingForPool2003(t, 'rqretry1', WAITER, at);
    await until('the "you are on the waitlist" DM', () => dmsTo(WAITER.id, 'Optimizing DAX').length === 1);
    // The requester's DM (the first of the notice's two) fails once; the approver's goes through.
    t.slack.answer('chat.postMessage', { ok: false, error: 'internal_error' }, 1);
    const victim = String(t.sandbox.inspect.licenses({ poolId: '2003' }).find((l) => l.active)?.id);
    await (await t.command(`revoke ${victim}`)).waitForResponse();
    await (await t.clickButton(ChangeActionId.revokeConfirm, victim)).waitForResponse((p) =>
      textOf(p.body.blocks).includes('Revoked'),
    );
    const toApprover = () =>
      t.slack.calls.filter(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === dmChannel(TEST_USERS.admin) &&
          textOf(c.args.blocks).includes(`<@${WAITER.id}> got a freed seat`),
      );
    await until('both DMs tried', () => toApprover().length === 1 && dmsTo(WAITER.id, 'it is yours').length === 1);
    await nextTry(1);
    await until('the requester’s DM tried again', () => dmsTo(WAITER.id, 'it is yours').length === 2);
    await nextTry(2);
    expect(toApprover()).toHaveLength(1);
    expect(dmsTo(WAITER.id, 'it is yours')).toHaveLength(2);
  });

  it('a DM Slack never takes is given up after every retry: an error line naming its kind, and a warning on the admins’ Home', async () => {
    const id = await requested(FAILING.id, '2005');
    // Every post to this person fails from now on; other posts go through.
    t.slack.answer('chat.postMessage', (c) =>
      c.args.channel === dmChannel(FAILING.id)
        ? { ok: false, error: 'internal_error' }
        : { ok: true, channel: c.args.channel, ts: `${Date.now() / 1000}` },
    );
    try {
      expect((await submitDenyReason(t, id, 'No budget this quarter')).status).toBe(200);
      await until('the first try', () => dmsTo(FAILING.id, 'No budget this quarter').length === 1);
      for (let tries = 1; tries < 8; tries += 1) {
        await nextTry(tries);
        await until(`try ${tries + 1}`, () => dmsTo(FAILING.id, 'No budget this quarter').length === tries + 1);
      }
      await nextTry(8);
      expect(dmsTo(FAILING.id, 'No budget this quarter')).toHaveLength(8);
    } finally {
      t.slack.answer('chat.postMessage', undefined);
    }
    const given = t.logs.filter((l) => l.message === 'a message to a person could not be delivered and was given up');
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({ level: 'error', kind: 'request-changed' });
    // No student data and no token in the line.
    expect(JSON.stringify(given[0])).not.toContain(FAILING.email);
    expect(JSON.stringify(given[0])).not.toContain('xoxb-');

    await t.event({ type: 'app_home_opened', user: TEST_USERS.admin, channel: 'D0HOME0001', tab: 'home' });
    const home = await t.slack.waitForCall(
      'views.publish',
      (c) => c.args.user_id === TEST_USERS.admin && textOf(c.args.view).includes('could not be delivered'),
    );
    expect(textOf(home.args.view)).toContain('1 message to people could not be delivered');
    expect(textOf(home.args.view)).toContain('course request updates');
    // A viewer sees no such warning (it is the admins' to act on).
    await t.event({ type: 'app_home_opened', user: TEST_USERS.viewer, channel: 'D0HOME0002', tab: 'home' });
    await t.slack.waitForCall('views.publish', (c) => c.args.user_id === TEST_USERS.viewer);
    await t.settled();
    const viewerViews = t.slack.calls.filter(
      (c) => c.method === 'views.publish' && c.args.user_id === TEST_USERS.viewer,
    );
    expect(viewerViews.some((c) => textOf(c.args.view).includes('could not be delivered'))).toBe(false);
  });
});
