/**
 * "Ask for more time" when the decision meets something else (docs/extensions.md): the licensing
 * service refuses the end-date write or cannot be read, a license admin changed the license since
 * the ask, the approver is the learner, a Deny… form submitted after someone approved, and an
 * approval whose answer was lost while the license was revoked before the read-back. Each time the
 * approver reads what happened, the ask waits again or stays decided, and the learner is told only
 * what is true.
 */

import { describe, expect, it } from 'vitest';
import { ExtensionActionId, ExtensionCallbackId, ExtensionInputId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { submit, textOf, writes } from '../support/change-flow.js';
import { movableClock } from '../support/clock.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { learnerHolding, moreTimeFlow } from '../support/more-time.js';
import { selfServiceTo } from '../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const clock = movableClock();
const now = clock.now;

/** 4012 (pool 2001) ends in about 40 days, 4005 and 4002 (pool 2001) within a week, 4035 (2004) in two days. */
const REFUSED = learnerHolding('U0MTREF001', '4012');
const UNREAD = learnerHolding('U0MTREF002', '4005');
const CHANGED = learnerHolding('U0MTREF003', '4002');
/** A license admin who is also a learner. */
const OWNER = learnerHolding('U0MTREF004', '4035');
/** 4031: Optimizing DAX, pool 2003, ends within a week. */
/** The learner whose ask was denied asks again. */
const REVOKED = UNREAD;
const RACED = learnerHolding('U0MTREF005', '4031');
const learners = [REFUSED, UNREAD, CHANGED, OWNER, RACED];

const t = appPerFile('more-time-refusals-', () =>
  startTestApp({
    now,
    admins: [TEST_USERS.admin, TEST_USERS.workspaceAdmin, OWNER.id],
    slack: {
      users: learners.map((l, i) => ({ id: l.id, name: `refused.${i}`, email: l.email })),
    },
    ...selfServiceTo(CHANNEL),
  }),
);

const { day, endOf, askFor, send, cardFor, clickCard, cardUpdate } = moreTimeFlow(t, CHANNEL, now);

/** `learner` asks for more time until `until`; the id of the card's request. */
async function asked(learner: { id: string; license: string }, until: string): Promise<string> {
  const from = t.slack.calls.length;
  const form = await askFor(learner.id, learner.license);
  await send(learner.id, form, until, 'Exams');
  return (await cardFor(learner.id, from)).id;
}

const approve = async (id: string, by: string = TEST_USERS.admin) =>
  textOf((await (await clickCard(ExtensionActionId.approve, id, by)).waitForResponse()).body.blocks);

const denyReason = (value: string) => ({
  values: {
    [ExtensionInputId.denyReason.block]: { [ExtensionInputId.denyReason.action]: { type: 'plain_text_input', value } },
  },
});

/** The Deny… form as Slack sends it back, with the ask's id in its private_metadata (any value, when forged). */
const denyForm = (viewId: string, id: string) => ({
  id: viewId,
  callback_id: ExtensionCallbackId.denyForm,
  private_metadata: id,
});

/** What the Deny… form shows once the denial is done (the view updated after "Denying…"), since call `from`. */
async function denyAnswer(from: number): Promise<string> {
  const shown = (c: { args: Record<string, unknown> }) => textOf((c.args.view as { blocks: unknown }).blocks);
  const call = await t.slack.waitForCall(
    'views.update',
    (c) => t.slack.calls.indexOf(c) >= from && !shown(c).includes('Denying'),
  );
  return shown(call);
}

const toldMoreTime = (user: string) =>
  t.slack.calls.filter(
    (c) => c.args.channel === dmChannel(user) && textOf(c.args.blocks).includes('You have more time'),
  );

describe('ask for more time, when the decision meets something else', () => {
  it('an end-date write the licensing service refuses changes nothing: the approver is told why, the ask waits again, and a later Approve goes through once', async () => {
    const until = day(60);
    const before = endOf(REFUSED.license);
    const id = await asked(REFUSED, until);
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: '500', method: 'PATCH', path: new RegExp(`/v1/license/${REFUSED.license}$`) });
    const said = await approve(id);
    t.sandbox.clearFaults();
    expect(said).toContain('The end date was not changed');
    expect(said).toContain('The request waits again');
    expect(endOf(REFUSED.license)).toBe(before);
    await cardUpdate('The last approval changed nothing');
    expect(toldMoreTime(REFUSED.id)).toEqual([]);
    expect((await t.audit.recent(5)).find((e) => e.action === 'approved')).toMatchObject({
      outcome: 'refused',
      requester: REFUSED.id,
    });

    expect(await approve(id, TEST_USERS.workspaceAdmin)).toContain(`now ends on`);
    expect(endOf(REFUSED.license)).toBe(until);
    await waitForDm(t.slack, REFUSED.id, 'You have more time');
    await t.settled();
    expect(toldMoreTime(REFUSED.id)).toHaveLength(1);
  });

  it('a license that cannot be read before the write is not written to; the ask waits and can then be denied without a reason', async () => {
    const id = await asked(UNREAD, day(20));
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: '500', method: 'GET', path: new RegExp(`/v1/license/${UNREAD.license}$`) });
    const said = await approve(id);
    t.sandbox.clearFaults();
    expect(said).toContain('The end date was not changed');
    expect(writes(t)).toEqual([]);

    // Denied with the reason left empty: the learner is told it was denied, quoting no reason.
    const from = t.slack.calls.length;
    await clickCard(ExtensionActionId.deny, id, TEST_USERS.admin);
    const opened = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    const modal = opened.args.view as { callback_id: string; private_metadata: string };
    expect(modal.callback_id).toBe(ExtensionCallbackId.denyForm);
    await submit(t, { id: 'VDENYBLANK', ...modal }, denyReason('   '), TEST_USERS.admin);
    const dm = await waitForDm(t.slack, UNREAD.id, 'was denied');
    expect(textOf(dm.args.blocks)).not.toContain('“');
    expect(writes(t)).toEqual([]);
  });

  it('a license a license admin changed since the ask to the day asked is not written again: the approver is told it already ends then', async () => {
    const until = day(5);
    const id = await asked(CHANGED, until);
    await t.licensing.licenses.changeEndDate(CHANGED.license, until);
    t.sandbox.clearRequests();
    const said = await approve(id);
    expect(said).toContain('the license already ends on that day');
    expect(writes(t)).toEqual([]);
    expect(toldMoreTime(CHANGED.id)).toEqual([]);
  });

  it('a license admin cannot approve nor deny their own ask, and an unknown ask is said to be gone', async () => {
    const id = await asked(OWNER, day(10));
    t.sandbox.clearRequests();
    expect(await approve(id, OWNER.id)).toContain('You cannot decide your own request for more time');
    const deny = await (await clickCard(ExtensionActionId.deny, id, OWNER.id)).waitForResponse();
    expect(textOf(deny.body.blocks)).toContain('You cannot decide your own request for more time');
    expect(writes(t)).toEqual([]);
    expect((await t.extensions?.service.get(id))?.status).toBe('pending');
    expect(await approve('x000000000000')).toContain('That request for more time no longer exists');
  });

  it('a Deny… form submitted after another admin approved changes nothing: the denier reads it was decided already', async () => {
    const until = day(20);
    const id = await asked(RACED, until);
    const from = t.slack.calls.length;
    await clickCard(ExtensionActionId.deny, id, TEST_USERS.workspaceAdmin);
    const opened = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    const modal = opened.args.view as { callback_id: string; private_metadata: string };
    expect(await approve(id)).toContain('now ends on');
    const before = t.slack.calls.length;
    await submit(t, { id: 'VDENYLATE', ...modal }, denyReason('No budget'), TEST_USERS.workspaceAdmin);
    expect(await denyAnswer(before)).toContain('Already decided');
    expect(endOf(RACED.license)).toBe(until);
    await t.settled();
    expect(
      t.slack.calls.filter(
        (c) => c.args.channel === dmChannel(RACED.id) && textOf(c.args.blocks).includes('was denied'),
      ),
    ).toEqual([]);
  });

  it('an approval whose answer was lost is read back only after a while; a license revoked before the read-back counts as not extended, the approver told it did not go through', async () => {
    const id = await asked(REVOKED, day(30));
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: 'reset', phase: 'after', method: 'PATCH', times: 1 });
    t.sandbox.addFault({
      kind: '500',
      method: 'GET',
      path: new RegExp(`/v1/license/${REVOKED.license}$`),
      rate: 2 / 3,
      times: 2,
    });
    expect(await approve(id)).toContain('is checking whether the end date changed');
    t.sandbox.clearFaults();
    // Too soon: the write may still be on its way, so the check leaves it.
    expect(await t.extensions?.tick()).toMatchObject({ settled: 0 });
    expect((await t.extensions?.service.get(id))?.status).toBe('extending');

    await t.licensing.licenses.revoke(REVOKED.license);
    clock.advance(3 * 60_000);
    expect(await t.extensions?.tick()).toMatchObject({ settled: 1 });
    await waitForDm(t.slack, TEST_USERS.admin, 'did not go through');
    const ask = await t.extensions?.service.get(id);
    expect(ask?.status).toBe('pending');
    expect(toldMoreTime(REVOKED.id)).toEqual([]);
    expect(writes(t).filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('two approvals at once send one end-date write: the second approver reads it was decided already', async () => {
    const until = day(90);
    const id = await asked(REFUSED, until);
    t.sandbox.clearRequests();
    const answers = await Promise.all([approve(id), approve(id, TEST_USERS.workspaceAdmin)]);
    expect(answers.filter((a) => a.includes('now ends on'))).toHaveLength(1);
    expect(answers.filter((a) => a.includes('Already decided'))).toHaveLength(1);
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual([`PATCH /v1/license/${REFUSED.license}`]);
    expect(endOf(REFUSED.license)).toBe(until);
  });

  it("a forged Deny… form is refused by the decision itself: for one's own ask, or for an ask that does not exist", async () => {
    const id = (await t.extensions?.service.kernel.opts.store.byRequester(OWNER.id))?.find(
      (x) => x.status === 'pending',
    )?.id;
    expect(id).toBeDefined();
    let from = t.slack.calls.length;
    await submit(t, denyForm('VFORGED1', String(id)), denyReason('mine'), OWNER.id);
    expect(await denyAnswer(from)).toContain('You cannot decide your own request for more time');
    expect((await t.extensions?.service.get(String(id)))?.status).toBe('pending');
    from = t.slack.calls.length;
    await submit(t, denyForm('VFORGED2', 'x0000000000ff'), denyReason('gone'), TEST_USERS.admin);
    expect(await denyAnswer(from)).toContain('That request for more time no longer exists');
  });
});
