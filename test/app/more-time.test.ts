/**
 * "Ask for more time" end to end: a learner's signed click on their own license, the form and its
 * checks, the approvers' card, Approve (one end-date write) and Deny with a reason, the reminder and
 * the expiry, and the refusals (someone else's license, a second ask). Slack calls go to the
 * recording fake, licenses come from the sandbox; the clock is injected and the check is ticked.
 */

import { describe, expect, it } from 'vitest';
import { ExtensionActionId, ExtensionCallbackId, ExtensionInputId } from '../../src/kernel/blocks/ids.js';
import { checkModalLimits } from '../../src/kernel/blocks/limits.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { submit, textOf, writes } from '../support/change-flow.js';
import { movableClock } from '../support/clock.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { buttons } from '../support/fixtures.js';
import { emailOf, moreTimeFlow } from '../support/more-time.js';
import { selfServiceTo } from '../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const clock = movableClock();
const now = clock.now;

/** 4012: Mastering DAX, pool 2001 (transferable, ends in 165 days), the license ends in 40 days. */
const LEARNER = { id: 'U0LEARN001', license: '4012' };
/** 4005 and 4002 end within a week, in the same pool; 4017 is in 2002, which is not transferable. */
const DENIED = { id: 'U0LEARN002', license: '4005' };
const LATE = { id: 'U0LEARN003', license: '4002' };
const FIXED = { id: 'U0LEARN004', license: '4017' };
/** 4035: Data Modeling for Power BI, pool 2004 (transferable, ends in 21 days), the license ends in 2 days. */
const UNCLEAR = { id: 'U0LEARN005', license: '4035' };
const learners = [LEARNER, DENIED, LATE, FIXED, UNCLEAR];

const t = appPerFile('more-time-', () =>
  startTestApp({
    now,
    admins: [TEST_USERS.admin, TEST_USERS.workspaceAdmin],
    slack: {
      users: learners.map((l, i) => ({ id: l.id, name: `learner.${i}`, email: emailOf(l.license) })),
    },
    ...selfServiceTo(CHANNEL),
  }),
);

const { day, endOf, askFor, send, cardFor, clickCard, cardUpdate } = moreTimeFlow(t, CHANNEL, now);

describe('ask for more time', () => {
  it('a click on someone else’s license is refused plainly: no form, nothing written, the attempt audited', async () => {
    const view = await askFor(TEST_USERS.nobody, LEARNER.license);
    expect(view.callback_id).toBe(ExtensionCallbackId.info);
    expect(textOf(view.blocks)).toContain('That license is not yours');
    const forms = t.slack.calls.filter(
      (c) => (c.args.view as { callback_id?: string } | undefined)?.callback_id === ExtensionCallbackId.form,
    );
    expect(forms).toEqual([]);
    expect(writes(t)).toEqual([]);
    const entry = (await t.audit.recent(5)).find((e) => e.actor === TEST_USERS.nobody);
    expect(entry).toMatchObject({ action: 'requested', outcome: 'refused', licenseId: LEARNER.license });
  });

  it('the form says the latest possible date, and each bad field gets its own sentence', async () => {
    const form = await askFor(LEARNER.id, LEARNER.license);
    expect(form.callback_id).toBe(ExtensionCallbackId.form);
    expect(checkModalLimits(form)).toEqual([]);
    const poolEnd = t.sandbox.inspect.pool('2001')?.end ?? '';
    expect(textOf(form.blocks)).toContain(`The latest possible end date is *${dayText(poolEnd)}*`);
    const problems = async (endDate: string | null, reason: string | null) => {
      const { ack } = await send(LEARNER.id, form, endDate, reason);
      expect(ack.response_action).toBe('errors');
      return ack.errors as Record<string, string>;
    };
    const dateBlock = ExtensionInputId.endDate.block;
    expect((await problems(day(-2), 'exams'))[dateBlock]).toMatch(/That day has passed/);
    expect((await problems(endOf(LEARNER.license), 'exams'))[dateBlock]).toMatch(
      /already runs until .*: pick a later day/,
    );
    expect((await problems(day(200), 'exams'))[dateBlock]).toMatch(
      /The pool ends on .*: pick that day or an earlier one/,
    );
    expect((await problems(day(60), '   '))[ExtensionInputId.reason.block]).toBe('Please say why you need more time.');
    expect(writes(t)).toEqual([]);
  });

  it('asked, carded, approved: exactly one write changes the end date, the learner is told once, audited', async () => {
    const form = await askFor(LEARNER.id, LEARNER.license);
    const until = day(60);
    const { ack } = await send(LEARNER.id, form, until, 'Exams in <!channel> week');
    expect(ack.response_action).toBe('update');
    const { call, id } = await cardFor(LEARNER.id);
    const card = textOf(call.args.blocks);
    expect(card).toContain(`asks for more time on *Mastering DAX* (pool \`2001\`) until *${dayText(until)}*`);
    expect(card).toContain('&lt;!channel&gt;'); // the reason pings nobody

    // A second ask while this one waits is refused, saying so.
    const again = await askFor(LEARNER.id, LEARNER.license);
    expect(textOf(again.blocks)).toContain('that request is waiting for a license admin');

    t.sandbox.clearRequests();
    const answer = await (await clickCard(ExtensionActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(answer.body.blocks)).toContain(`now ends on ${dayText(until)}`);
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual([`PATCH /v1/license/${LEARNER.license}`]);
    expect(endOf(LEARNER.license)).toBe(until);
    await waitForDm(t.slack, LEARNER.id, 'You have more time');
    await cardUpdate('Approved by');
    const entries = await t.audit.recent(10);
    expect(entries.find((e) => e.action === 'extend')).toMatchObject({
      actor: TEST_USERS.admin,
      outcome: 'done',
      licenseId: LEARNER.license,
      endDate: until,
    });
    expect(entries.find((e) => e.action === 'approved')).toMatchObject({ outcome: 'done', requester: LEARNER.id });

    // A late second Approve changes nothing more, and the learner hears it once.
    const late = await (await clickCard(ExtensionActionId.approve, id, TEST_USERS.workspaceAdmin)).waitForResponse();
    expect(textOf(late.body.blocks)).toContain('Already decided');
    await t.settled();
    expect(writes(t)).toHaveLength(1);
    const told = t.slack.calls.filter(
      (c) => c.args.channel === dmChannel(LEARNER.id) && textOf(c.args.blocks).includes('You have more time'),
    );
    expect(told).toHaveLength(1);
  });

  it('Approve re-checks on a fresh read: a license revoked since is not written to, and the ask waits again', async () => {
    const form = await askFor(LEARNER.id, LEARNER.license);
    await send(LEARNER.id, form, day(90), 'One more module');
    const id = await t.slack
      .waitForCall(
        'chat.postMessage',
        (c) => c.args.channel === CHANNEL && textOf(c.args.blocks).includes(dayText(day(90))),
      )
      .then((call) => String(buttons(call.args).find((b) => b.action_id === ExtensionActionId.approve)?.value));
    await t.licensing.licenses.revoke(LEARNER.license);
    t.sandbox.clearRequests();
    const answer = await (await clickCard(ExtensionActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(answer.body.blocks)).toContain('The end date was not changed: the license is no longer active');
    expect(writes(t)).toEqual([]);
    await cardUpdate('The last approval changed nothing');
    expect(buttons((await cardUpdate('The last approval changed nothing')).args).map((b) => b.action_id)).toContain(
      ExtensionActionId.approve,
    );
  });

  it('an answer lost and its read-back failing: the approver is told it is being checked; the check reads it back and tells both once', async () => {
    const form = await askFor(UNCLEAR.id, UNCLEAR.license);
    const until = day(10);
    await send(UNCLEAR.id, form, until, 'Sick leave');
    const { id } = await cardFor(UNCLEAR.id);
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: 'reset', phase: 'after', method: 'PATCH', times: 1 });
    // Spread evenly (rate 2/3): the fresh read before the write passes, the read-back after it fails
    // both its attempts (the harness's client tries a read twice).
    t.sandbox.addFault({
      kind: '500',
      method: 'GET',
      path: new RegExp(`/v1/license/${UNCLEAR.license}$`),
      rate: 2 / 3,
      times: 2,
    });
    const answer = await (await clickCard(ExtensionActionId.approve, id, TEST_USERS.admin)).waitForResponse();
    expect(textOf(answer.body.blocks)).toContain('is checking whether the end date changed');
    await cardUpdate('the end date is being changed');
    expect(
      t.slack.calls.filter(
        (c) => c.args.channel === dmChannel(UNCLEAR.id) && textOf(c.args.blocks).includes('more time:'),
      ),
    ).toEqual([]);
    t.sandbox.clearFaults();
    clock.advance(3 * 60_000);
    await t.extensions?.tick();
    await waitForDm(t.slack, UNCLEAR.id, 'You have more time');
    await waitForDm(t.slack, TEST_USERS.admin, 'went through after all');
    expect(writes(t).filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(endOf(UNCLEAR.license)).toBe(until);
  });

  it('denied with a reason: the learner is told the reason, the end date stays', async () => {
    const before = endOf(DENIED.license);
    const form = await askFor(DENIED.id, DENIED.license);
    await send(DENIED.id, form, day(30), 'Project slipped');
    const { id } = await cardFor(DENIED.id);
    const from = t.slack.calls.length;
    await clickCard(ExtensionActionId.deny, id, TEST_USERS.admin);
    const opened = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    const modal = opened.args.view as { callback_id: string; private_metadata: string };
    expect(modal.callback_id).toBe(ExtensionCallbackId.denyForm);
    const state = {
      values: {
        [ExtensionInputId.denyReason.block]: {
          [ExtensionInputId.denyReason.action]: { type: 'plain_text_input', value: 'Budget is closed this quarter' },
        },
      },
    };
    await submit(t, { id: 'VDENY1', ...modal }, state, TEST_USERS.admin);
    const dm = await waitForDm(t.slack, DENIED.id, 'was denied');
    expect(textOf(dm.args.blocks)).toContain('“Budget is closed this quarter”');
    await cardUpdate('Denied by');
    expect(endOf(DENIED.license)).toBe(before);
  });

  it('a license in a pool whose end dates cannot change gets no form, and says why', async () => {
    const view = await askFor(FIXED.id, FIXED.license);
    expect(textOf(view.blocks)).toContain('cannot be changed (the pool is not transferable)');
  });

  it('undecided: reminded once after REQUEST_REMIND_HOURS, expired after REQUEST_EXPIRY_DAYS, the learner told', async () => {
    const form = await askFor(LATE.id, LATE.license);
    await send(LATE.id, form, day(20), 'Parental leave');
    await cardFor(LATE.id);
    clock.advance(25 * 3_600_000);
    await t.extensions?.tick();
    await t.extensions?.tick();
    await t.settled();
    const reminders = t.slack.calls.filter(
      (c) =>
        c.args.channel === CHANNEL && c.args.thread_ts && textOf(c.args.blocks).includes(`<@${LATE.id}> still waits`),
    );
    expect(reminders).toHaveLength(1);
    expect(textOf(reminders[0]?.args.blocks)).toContain('Reminder');
    clock.advance(7 * DAY_MS);
    await t.extensions?.tick();
    await waitForDm(t.slack, LATE.id, 'expired: nobody decided in time');
    await cardUpdate('Expired');
    expect((await t.audit.recent(5)).find((e) => e.action === 'expired')).toMatchObject({ outcome: 'done' });
  });
});
